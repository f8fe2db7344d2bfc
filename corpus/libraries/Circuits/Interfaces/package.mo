within Circuits;
package Interfaces "Connectors and partial models"
end Interfaces;
