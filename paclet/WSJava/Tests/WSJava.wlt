(* Tests for Kernel/WSJava.wl: loading, usage messages, WSJavaInfo. Run by the test suite with
   wolframscript after PacletDirectoryLoad of the paclet folder. *)

VerificationTest[
  Needs["WSJava`"]; MemberQ[$Packages, "WSJava`"],
  True,
  TestID -> "WSJava-Loads"
]

VerificationTest[
  Needs["WSJava`"]; Get["WSJava`"]; Get["WSJava`"]; {MemberQ[$Packages, "WSJava`"], Head[WSJavaInfo[]]},
  {True, Association},
  TestID -> "WSJava-LoadingTwiceIsHarmless"
]

VerificationTest[
  Select[Names["WSJava`*"], !StringQ[ToExpression[#, InputForm, Function[s, MessageName[s, "usage"], HoldFirst]]] &],
  {},
  TestID -> "WSJava-EveryPublicSymbolHasUsage"
]

VerificationTest[
  WSJavaInfo[]["Version"],
  "0.1.0",
  TestID -> "WSJava-InfoVersion"
]

VerificationTest[
  StringStartsQ[WSJavaInfo[]["MaskImplementation"], "scalar" | "simd-"],
  True,
  TestID -> "WSJava-InfoMaskImplementation"
]

VerificationTest[
  WSJavaInfo["extra"],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "WSJava-InfoBadArguments"
]
