(* ::Package:: *)

(* Planted for WlPitfallsTest: the shape of a fixture that once put its WLJS stand-ins in Global`.
   Both BeginPackage calls and the Begin are inside one If, so every name below them is made in the
   reader's context before any of them runs. The static check must report all three. *)

If[StringQ[Environment["SOME_CHECKOUT"]],
  Needs["Some`Package`"],

  BeginPackage["CoffeeLiqueur`Misc`Events`"];
  EventFire::usage = "planted";
  EndPackage[];

  BeginPackage["CoffeeLiqueur`WebSocketHandler`"];
  WebSocketUHandler::usage = "planted";
  Begin["`Private`"];
  WebSocketUHandler[] := Module[{fields = <||>}, WebSocketUHandler[fields]];
  End[];
  EndPackage[]
];
