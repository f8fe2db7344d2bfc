within Drives;
package Mechanical "Rotational components"
  import Drives.Interfaces;

  model Inertia
    parameter SI.Inertia J = 1;
    Interfaces.Flange flange;
    SI.Angle phi;
    SI.AngularVelocity w;
  equation
    phi = flange.phi;
    w = der(phi);
    J*der(w) = flange.tau;
  end Inertia;

  model TableDamper "Damping coefficient from a table over the speed (only its first segment is used)"
    parameter Real d_table[:, 2] = [0, 0.5; 10, 0.8] "rows {w, d}; the size is the binding's";
    final parameter Real d0 = d_table[1, 2] "damping at w = 0";
    final parameter Real slope = if size(d_table, 1) > 1
      then (d_table[2, 2] - d_table[1, 2])/(d_table[2, 1] - d_table[1, 1]) else 0;
    Interfaces.Flange flange;
    SI.AngularVelocity w;
  equation
    w = der(flange.phi);
    flange.tau = (d0 + slope*w)*w;
  end TableDamper;

  model TableBrake "Braking torque over the speed from a table kept in an external object"
    import Drives.Tables;
    parameter Real tau_table[:, 2] = [0, 0; 1, 2; 2, 3] "rows {w, tau}";
    parameter Tables.Smoothness smoothness = Tables.Smoothness.LinearSegments;
    Interfaces.Flange flange;
    SI.AngularVelocity w;
  protected
    final parameter Tables.Table1D table = Tables.Table1D(
      tableName = "NoName", fileName = "NoName", table = tau_table, columns = {2},
      smoothness = smoothness, extrapolation = Tables.Extrapolation.LastTwoPoints) "the table's external object";
  equation
    w = der(flange.phi);
    flange.tau = Tables.valueAt(table, 1, w);
  end TableBrake;
end Mechanical;
