(* ::Package:: *)

(* The masking article's RepeatedTiming table (mask1 to mask7), plus WSJava through J/Link, on
   your own Wolfram Engine. Used by MaskingTable.wls and notebooks/MaskingBenchmark.wln.
   Every variant masks the same 1 MiB payload with the same key, is checked against mask1's
   result and against the involution, and is timed with RepeatedTiming. A variant that cannot
   run here (no C compiler, a FunctionCompile that does not compile on this version) gets a row
   that says why; nothing is estimated. *)

BeginPackage["WSJavaBenchmark`", {"WSJava`"}];

MaskingBenchmarkRun::usage = "MaskingBenchmarkRun[] times every variant on a 1 MiB payload and returns a list of associations with \"Variant\", \"Seconds\", \"Check\" and \"Note\".";
MaskingBenchmarkTable::usage = "MaskingBenchmarkTable[rows] adds the speed-ups over mask1 and mask7 and gives a Dataset.";
MaskingBenchmarkExport::usage = "MaskingBenchmarkExport[rows, dir] writes masking-wl.csv and masking-wl.png to dir and gives their paths.";

Begin["`Private`"];

$here = DirectoryName[$InputFileName];

(* ---- the article's variants, as it describes them ---- *)

mask1 = Function[{maskingKey, payload},
  ByteArray[Table[BitXor[payload[[i]], maskingKey[[Mod[i - 1, 4] + 1]]], {i, 1, Length[payload]}]]];

mask2 = Function[{maskingKey, payload},
  Module[{k = Normal[maskingKey], p = Normal[payload]},
    ByteArray[Table[BitXor[p[[i]], k[[Mod[i - 1, 4] + 1]]], {i, 1, Length[p]}]]]];

cmask3 := cmask3 = Compile[{{k, _Integer, 1}, {p, _Integer, 1}},
  Table[BitXor[p[[i]], k[[Mod[i - 1, 4] + 1]]], {i, 1, Length[p]}]];
mask3 = Function[{maskingKey, payload}, ByteArray[cmask3[Normal[maskingKey], Normal[payload]]]];

(* TypeSpecifier["NumericArray"]["MachineInteger", 1] is the long form of "NumericArray"::["MachineInteger", 1]. *)
cmask4 := cmask4 = FunctionCompile[Function[
  {Typed[maskingKey, TypeSpecifier["NumericArray"]["MachineInteger", 1]],
   Typed[payload, TypeSpecifier["NumericArray"]["MachineInteger", 1]]},
  Table[BitXor[payload[[i]], maskingKey[[Mod[i - 1, 4] + 1]]], {i, 1, Length[payload]}]]];
mask4 = Function[{maskingKey, payload}, ByteArray[cmask4[maskingKey, payload]]];

cmask5 := cmask5 = FunctionCompile[
  FunctionDeclaration[fmask5,
    Typed[{TypeSpecifier["NumericArray"]["UnsignedInteger8", 1], TypeSpecifier["NumericArray"]["UnsignedInteger8", 1]} ->
      TypeSpecifier["NumericArray"]["UnsignedInteger8", 1]] @
    Function[{maskingKey, payload},
      Module[{result = payload},
        Do[result[[i]] = BitXor[payload[[i]], maskingKey[[Mod[i - 1, 4] + 1]]], {i, 1, Length[payload]}];
        result]]],
  fmask5];
mask5 = Function[{maskingKey, payload}, ByteArray[cmask5[maskingKey, payload]]];

(* mask6 and mask7: the C in masklink.c, built once with CreateLibrary, then each function loaded
   on its own, so a problem with one never marks the other as not run or wrong. Argument types as
   the LibraryFunctionLoad and LibraryDataType reference pages write them: LibraryDataType[ByteArray]
   (the symbol), with "Shared" for mask7's output buffer as the article passes it. *)
library[] := library[] = Module[{lib},
  Needs["CCompilerDriver`"];
  If[CCompilerDriver`CCompilers[] === {}, Return[Failure["NotRun", <|"Message" -> "no C compiler (CCompilerDriver`CCompilers[] is empty)"|>]]];
  lib = Quiet[CCompilerDriver`CreateLibrary[{FileNameJoin[{$here, "masklink.c"}]}, "wsjava_masklink"]];
  If[StringQ[lib], lib, Failure["NotRun", <|"Message" -> "CreateLibrary failed"|>]]
];

$argumentTypes = <|
  "mask6" -> {LibraryDataType[ByteArray], Integer, LibraryDataType[ByteArray], Integer},
  "mask7" -> {LibraryDataType[ByteArray], Integer, {LibraryDataType[ByteArray], "Shared"}, Integer}
|>;

libraryFunction[name_String] := libraryFunction[name] = Module[{lib = library[], f},
  If[FailureQ[lib], Return[lib]];
  f = Quiet[Check[LibraryFunctionLoad[lib, name, $argumentTypes[name], LibraryDataType[ByteArray]], $Failed]];
  If[Head[f] === LibraryFunction, f, Failure["NotRun", <|"Message" -> "LibraryFunctionLoad of " <> name <> " failed"|>]]
];

cVariant[name_String] := Function[{maskingKey, payload},
  With[{f = libraryFunction[name]},
    If[FailureQ[f], f, f[maskingKey, Length[maskingKey], payload, Length[payload]]]]];

keyNumber[maskingKey_ByteArray] := FromDigits[Normal[maskingKey], 256];

(* WSJava through J/Link, each byte transfer on its own, and the Java core timed inside the JVM. *)
javaBase64 = Function[{maskingKey, payload}, WSJavaMask[maskingKey, payload]];
javaIntegers = Function[{maskingKey, payload},
  WSJava`Private`fromJavaIntegers[WSJavaLink`maskIntegers[keyNumber[maskingKey], WSJava`Private`toJavaIntegers[payload]]]];

$variants = {
  "mask1 (Table, BitXor, Mod)" -> mask1,
  "mask2 (Normal first)" -> mask2,
  "mask3 (Compile)" -> mask3,
  "mask4 (FunctionCompile, typed NumericArray)" -> mask4,
  "mask5 (FunctionDeclaration, in-place Do)" -> mask5,
  "mask6 (LibraryLink C, i % n)" -> cVariant["mask6"],
  "mask7 (LibraryLink C, nested loop, shared)" -> cVariant["mask7"],
  "WSJavaMask via J/Link, Base64 transfer" -> javaBase64,
  "WSJava via J/Link, integer-list transfer" -> javaIntegers
};

(* ---- running ---- *)

MaskingBenchmarkRun[] := Module[{payload, maskingKey, reference, rows},
  SeedRandom[6455];
  payload = ByteArray[RandomInteger[{0, 255}, 2^20]];
  maskingKey = ByteArray[{55, 250, 33, 61}];
  WSJavaInfo[];   (* start Java before anything is timed *)
  reference = mask1[maskingKey, payload];
  rows = KeyValueMap[runVariant[#1, #2, maskingKey, payload, reference] &, Association[$variants]];
  Join[rows, {
    javaCoreRow[maskingKey],
    transferRow["WL BaseEncode of 1 MiB (WL to Java direction)", BaseEncode[payload]],
    With[{encoded = BaseEncode[payload]},   (* encoded outside the timing: only the decode is timed *)
      transferRow["WL BaseDecode of 1 MiB (Java to WL direction)", BaseDecode[encoded]]],
    transferRow["WL signed integer list of 1 MiB (for byte[])", WSJava`Private`toJavaIntegers[payload]]
  }]
];

(* One untimed run first: Compile, FunctionCompile, CreateLibrary and LibraryFunctionLoad happen on
   a variant's first call, and must not be counted as masking. *)
runVariant[name_, function_, maskingKey_, payload_, reference_] := Module[{warm, timed, result, check},
  warm = Quiet[Check[function[maskingKey, payload], $Failed]];
  timed = If[warm === $Failed || FailureQ[warm], {Missing["NotRun"], warm},
    Quiet[Check[RepeatedTiming[function[maskingKey, payload]], $Failed]]];
  Which[
    timed === $Failed, <|"Variant" -> name, "Seconds" -> Missing["NotRun"], "Check" -> "-", "Note" -> "did not run: evaluation failed"|>,
    timed[[2]] === $Failed, <|"Variant" -> name, "Seconds" -> Missing["NotRun"], "Check" -> "-", "Note" -> "did not run: evaluation failed"|>,
    FailureQ[Last[timed]], <|"Variant" -> name, "Seconds" -> Missing["NotRun"], "Check" -> "-",
      "Note" -> "did not run: " <> ToString[Lookup[Last[timed][[2]], "Message", "failed"]]|>,
    True,
      result = Last[timed];
      check = If[result === reference && function[maskingKey, result] === payload, "equals mask1, involution holds", "WRONG RESULT"];
      <|"Variant" -> name, "Seconds" -> First[timed], "Check" -> check, "Note" -> ""|>
  ]
];

javaCoreRow[maskingKey_] := Module[{nanos = WSJava`Private`javaCall[WSJavaLink`benchmarkMaskNanos[keyNumber[maskingKey], 2^20, 200]]},
  <|"Variant" -> "Java core inside the JVM (no transfer; " <> WSJavaInfo[]["MaskImplementation"] <> ")",
    "Seconds" -> If[IntegerQ[nanos], nanos*10.^-9, Missing["NotRun"]], "Check" -> "checked by the Java tests", "Note" -> "median of 200, timed in Java"|>
];

SetAttributes[transferRow, HoldRest];
transferRow[name_, expr_] := <|"Variant" -> name, "Seconds" -> First[RepeatedTiming[expr]], "Check" -> "-", "Note" -> "transfer cost alone"|>;

MaskingBenchmarkTable[rows_List] := Module[{seconds = AssociationThread[rows[[All, "Variant"]], rows[[All, "Seconds"]]], base1, base7},
  base1 = seconds["mask1 (Table, BitXor, Mod)"];
  base7 = seconds["mask7 (LibraryLink C, nested loop, shared)"];
  Dataset[Map[Append[#, {
      "Speed-up over mask1" -> ratio[base1, #["Seconds"]],
      "Speed-up over mask7" -> ratio[base7, #["Seconds"]]}] &, rows]]
];

ratio[base_?NumericQ, t_?NumericQ] := base/t;
ratio[_, _] := Missing["NotAvailable"];

MaskingBenchmarkExport[rows_List, dir_String] := Module[{csv, png, timed},
  Quiet[CreateDirectory[dir]];
  csv = Export[FileNameJoin[{dir, "masking-wl.csv"}],
    Prepend[Values /@ (KeyTake[#, {"Variant", "Seconds", "Check", "Note"}] & /@ rows), {"Variant", "Seconds", "Check", "Note"}]];
  timed = Select[rows, NumericQ[#["Seconds"]] &];
  png = Export[FileNameJoin[{dir, "masking-wl.png"}],
    BarChart[timed[[All, "Seconds"]], ChartLabels -> Placed[timed[[All, "Variant"]], Axis, Rotate[#, Pi/2.5] &],
      ScalingFunctions -> "Log", PlotLabel -> "Masking 1 MiB: RepeatedTiming (seconds, log scale)", ImageSize -> 900]];
  {csv, png}
];

End[];

EndPackage[];
