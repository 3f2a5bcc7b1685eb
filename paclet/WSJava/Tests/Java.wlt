(* Tests for Kernel/Java.wl: starting Java once, byte transfer in both directions, Java errors. *)

Needs["WSJava`"];

VerificationTest[
  With[{bytes = ByteArray[RandomInteger[{0, 255}, 1000]]}, WSJava`Private`fromJava[WSJava`Private`toJava[bytes]] === bytes],
  True,
  TestID -> "Java-Base64RoundTrip"
]

VerificationTest[
  Length[WSJava`Private`fromJava[WSJava`Private`toJava[ByteArray[{}]]]],
  0,
  TestID -> "Java-EmptyBytes"
]

VerificationTest[
  WSJava`Private`toJavaIntegers[ByteArray[{0, 127, 128, 255}]],
  {0, 127, -128, -1},
  TestID -> "Java-SignedIntegersForByteArrays"
]

VerificationTest[
  WSJava`Private`fromJavaIntegers[{0, 127, -128, -1}],
  ByteArray[{0, 127, 128, 255}],
  TestID -> "Java-IntegersBackToBytes"
]

VerificationTest[
  With[{bytes = ByteArray[RandomInteger[{0, 255}, 5000]]},
    WSJava`Private`fromJavaIntegers[WSJava`Private`javaCall[WSJavaLink`maskIntegers[0, WSJava`Private`toJavaIntegers[bytes]]]] === bytes],
  True,
  TestID -> "Java-IntegerTransferWithZeroKeyIsIdentity"
]

VerificationTest[
  (* The text is the Java exception's own (decided by Check, not by reading $MessageList). *)
  With[{f = WSJava`Private`javaCall[WSJavaLink`serverPort[987654321]]},
    {Head[f], f[[1]], StringContainsQ[First[f["MessageParameters"]], "IllegalArgumentException"],
     StringContainsQ[First[f["MessageParameters"]], "987654321"]}],
  {Failure, "WSJavaJavaError", True, True},
  {WSJava::javaerr},
  TestID -> "Java-ExceptionBecomesFailure"
]

VerificationTest[
  WSJava`Private`ensureJava[] === WSJava`Private`ensureJava[],
  True,
  TestID -> "Java-StartedOnce"
]

VerificationTest[
  (* J/Link's own argument error (Java::argxs1 for a static method) is quieted and becomes one
     WSJava::javaerr naming it, with a Failure. *)
  With[{f = With[{notAHandle = "not a handle"}, WSJava`Private`javaCall[WSJavaLink`serverPort[notAHandle]]]},
    {f[[1]], StringStartsQ[First[f["MessageParameters"]], "J/Link refused "], StringContainsQ[First[f["MessageParameters"]], "serverPort"]}],
  {"WSJavaJavaError", True, True},
  {WSJava::javaerr},
  TestID -> "Java-JLinkArgumentErrorBecomesFailure"
]

VerificationTest[
  (* What a drain tick uses: never starts or prepares Java, and fails quietly on any other link. *)
  {WSJava`Private`javaCallOn[None, WSJavaLink`version[]],
   WSJava`Private`javaCallOn[WSJava`Private`ensureJava[], WSJavaLink`version[]]},
  {Failure["WSJavaJavaGone", _], "0.1.0"},
  SameTest -> MatchQ,
  TestID -> "Java-ACallOnALinkNeverStartsJava"
]

VerificationTest[
  {WSJava`Private`beyondBmpQ["plain é"], WSJava`Private`beyondBmpQ["a\|01F600"], WSJava`Private`beyondBmpQ[""]},
  {False, True, False},
  TestID -> "Java-TextBeyondTheBMPIsRecognised"
]

VerificationTest[
  Block[{WSJava`Private`$javaDirectory = "/no/such/folder", WSJava`Private`$preparedLink = None},
    {WSJava`Private`ensureJava[], WSJava`Private`$preparedLink}],
  {Failure["WSJavaNoJar", _], None},
  {WSJava::nojar},
  SameTest -> MatchQ,
  TestID -> "Java-AMissingJarIsAFailureAndNotRemembered"
]

VerificationTest[
  Block[{WSJava`Private`$linkClass = "wsjava.link.NoSuchClass", WSJava`Private`$preparedLink = None},
    WSJava`Private`ensureJava[]],
  Failure["WSJavaNoJava", _],
  {WSJava::nojava},
  SameTest -> MatchQ,
  TestID -> "Java-AFailedLoadJavaClassIsAFailure"
]

VerificationTest[
  {WSJava`Private`secondsToMillis[1.5*^4], WSJava`Private`secondsToMillis[Quantity[2, "Minutes"]], WSJava`Private`secondsToMillis[10^10]},
  {15000000, 120000, None},
  TestID -> "Java-SecondsBecomeWholeMilliseconds"
]
