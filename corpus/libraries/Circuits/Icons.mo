within Circuits;
package Icons "Base classes that only mark a package's purpose"
  partial package ExamplesPackage "A package of examples"
  end ExamplesPackage;
end Icons;
