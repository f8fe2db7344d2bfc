within Circuits.Interfaces;
connector PositivePin = Pin "positive pin";
