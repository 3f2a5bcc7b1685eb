(* Tests for Kernel/WSJava.wl: loading, usage messages, WSJavaInfo. Run by the test suite with
   wolframscript after PacletDirectoryLoad of the paclet folder. *)

VerificationTest[
  Needs["WSJava`"]; MemberQ[$Packages, "WSJava`"],
  True,
  TestID -> "WSJava-Loads"
]

VerificationTest[
  (* Run first in a fresh kernel (each .wlt is): loading WSJava` leaves the drop-in handler
     unloaded (inside WLJS its names would shadow WLJS's, General::shdw), and creates no symbol
     in the user's context (a top-level With[{dir = ...}] once made Global`dir). *)
  Needs["WSJava`"];
  {MemberQ[$Packages, "WSJava`WLJS`"], MemberQ[$ContextPath, "WSJava`WLJS`"], Names["Global`dir"]},
  {False, False, {}},
  TestID -> "WSJava-LoadingTouchesNothingElse"
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

VerificationTest[
  Needs["WSJava`WLJS`"]; {MemberQ[$Packages, "WSJava`WLJS`"], MemberQ[$ContextPath, "WSJava`WLJS`"]},
  {True, True},
  TestID -> "WSJava-TheDropInLoadsOnlyWhenAskedFor"
]
