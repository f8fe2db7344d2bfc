within Circuits.Interfaces;
connector NegativePin = Pin "negative pin";
