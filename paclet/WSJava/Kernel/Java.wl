(* ::Package:: *)

(* The one place that knows about J/Link: starting Java once, putting the jar on the class path,
   turning Java exceptions into Failures, and moving bytes. Every Java call in the paclet goes
   through javaCall, and every byte crossing goes through toJava/fromJava, so the transfer can
   change once it is measured on a real engine. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::nojar = "The WSJava jar was not found in `1`. Build it with mvn package, or install the .paclet archive.";
WSJava::javaerr = "Java error: `1`";
WSJava::args = "`1` was called with `2`; expected `3`.";

(* The paclet's Java folder, found relative to this file (as BioFormatsLink does). *)
$javaDirectory = FileNameJoin[{ParentDirectory[DirectoryName[$InputFileName]], "Java"}];

$linkClass = "wsjava.link.WSJavaLink";

(* The JavaLink we set up last: InstallJava is cheap when Java runs, but the class path and the
   loaded class must be set again if someone restarted the JVM (ReinstallJava). We never call
   ReinstallJava ourselves: it would restart Java for every package in the kernel. *)
$preparedLink = None;

ensureJava[] := Module[{link},
  link = InstallJava[];
  If[link =!= $preparedLink,
    If[FileNames["*.jar", $javaDirectory] === {},
      Message[WSJava::nojar, $javaDirectory];
      Return[Failure["WSJavaNoJar", <|"MessageTemplate" :> WSJava::nojar, "MessageParameters" -> {$javaDirectory}|>]]
    ];
    AddToClassPath[$javaDirectory];
    LoadJavaClass[$linkClass];
    $preparedLink = link
  ];
  link
];

(* Evaluates a Java call; a Java exception becomes a Failure that carries its text. *)
SetAttributes[javaCall, HoldFirst];
javaCall[call_] := Module[{ready, result, text},
  ready = ensureJava[];
  If[FailureQ[ready], Return[ready]];
  result = Quiet[Check[call, $javaFailed, {Java::excptn}], {Java::excptn}];
  If[result === $javaFailed || result === $Failed,
    text = JavaBlock[With[{e = GetJavaException[]}, If[e === Null, "unknown error", e@toString[]]]];
    Message[WSJava::javaerr, text];
    Failure["WSJavaJavaError", <|"MessageTemplate" :> WSJava::javaerr, "MessageParameters" -> {text}|>],
    result
  ]
];

(* A bad-arguments Failure with its message, for the catch-all definition of each public function. *)
argumentFailure[function_Symbol, args_List, expected_String] := (
  Message[WSJava::args, function, Short[args], expected];
  Failure["WSJavaBadArguments", <|"MessageTemplate" :> WSJava::args,
    "MessageParameters" -> {function, Short[args], expected}|>]
);

(* ---- byte transfer: Base64 Strings, natively fast on both sides ---- *)

toJava[bytes_ByteArray] := If[Length[bytes] == 0, "", BaseEncode[bytes]];
fromJava[""] := ByteArray[{}];
fromJava[text_String] := BaseDecode[text];

(* The alternative, an integer list for a byte[] parameter, kept for the transfer benchmark:
   J/Link's byte is signed, so 128..255 travel as -128..-1. *)
toJavaIntegers[bytes_ByteArray] := With[{list = Normal[bytes]}, list - 256 UnitStep[list - 128]];
fromJavaIntegers[list_List] := ByteArray[Mod[list, 256]];

WSJavaInfo[] := Module[{version, kernel},
  version = javaCall[WSJavaLink`version[]];
  If[FailureQ[version], Return[version]];
  kernel = javaCall[WSJavaLink`maskImplementation[]];
  <|"Version" -> version, "MaskImplementation" -> kernel,
    "JavaVersion" -> javaCall[WSJavaLink`javaVersion[]],
    "JavaDirectory" -> $javaDirectory|>
];
WSJavaInfo[args__] := argumentFailure[WSJavaInfo, {args}, "no arguments"];

End[];

EndPackage[];
