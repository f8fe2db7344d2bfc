within Circuits.Interfaces;
connector Pin "Electrical pin"
  SI.Voltage v "potential";
  flow SI.Current i "current into the pin";
end Pin;
