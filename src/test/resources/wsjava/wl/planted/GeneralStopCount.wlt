(* Planted for WlTestPitfallsTest. The kernel issues General::stop with the third identical message:
   the first test (three without it) and the third (four) can never pass; the second is right. *)

VerificationTest[
  {WSJavaSubscribe[c, ""], WSJavaSubscribe[c, ""], WSJavaSubscribe[c, ""]},
  {Failure["WSJavaBadArguments", _], Failure["WSJavaBadArguments", _], Failure["WSJavaBadArguments", _]},
  {WSJava::args, WSJava::args, WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Planted-ThreeWithoutGeneralStop"
]

VerificationTest[
  {WSJavaSubscribe[c, ""], WSJavaSubscribe[c, ""], WSJavaSubscribe[c, ""]},
  {Failure["WSJavaBadArguments", _], Failure["WSJavaBadArguments", _], Failure["WSJavaBadArguments", _]},
  {WSJava::args, WSJava::args, WSJava::args, General::stop},
  SameTest -> MatchQ,
  TestID -> "Planted-ThreeWithGeneralStop"
]

VerificationTest[
  Table[WSJavaSubscribe[c, ""], 4],
  Table[Failure["WSJavaBadArguments", _], 4],
  {WSJava::args, WSJava::args, WSJava::args, General::stop, WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Planted-Four"
]
