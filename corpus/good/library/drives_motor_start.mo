// A DC motor whose data set is a record (Drives.Data.MotorData: extends a
// partial record, a nested friction record, final fields computed from the
// others), given by a record constructor with a nested constructor, passed
// down by the modifier `data = motorData` and read in the motor's equations
// (data.R, data.friction.d); the motor's power balance is a record equation
// with a constructor on its right side.
// status: good
// library: ../../libraries/Drives
model MotorStartFromLibrary
  extends Drives.Examples.MotorStart;
end MotorStartFromLibrary;
