(* ::Package:: *)

(* Planted for WlPitfallsTest: code on BeginPackage's own line is one CompoundExpression with it,
   parsed before it runs, so f is Global`f. The static check must report line 5 only. *)
BeginPackage["Planted`"]; f::usage = "planted";
Begin["`Private`"]; (* a comment after it is fine *)
f[x_] := x;
End[]; EndPackage[];
