(* Tests for Kernel/Protocol.wl: masking, accept key, handshake, frames. *)

Needs["WSJava`"];

VerificationTest[
  ByteArrayToString[WSJavaMask[ByteArray[{16^^37, 16^^fa, 16^^21, 16^^3d}], ByteArray[{16^^7f, 16^^9f, 16^^4d, 16^^51, 16^^58}]]],
  "Hello",
  TestID -> "Protocol-MaskRfcHello"
]

VerificationTest[
  With[{payload = ByteArray[RandomInteger[{0, 255}, 2^20 + 3]], key = RandomInteger[{0, 2^32 - 1}]},
    WSJavaMask[key, WSJavaMask[key, payload]] === payload],
  True,
  TestID -> "Protocol-MaskTwiceIsIdentity"
]

VerificationTest[
  With[{payload = ByteArray[RandomInteger[{0, 255}, 999]], key = ByteArray[{1, 2, 3, 4}]},
    WSJavaMask[key, payload] === ByteArray[BitXor[Normal[payload], PadRight[{}, 999, {1, 2, 3, 4}]]]],
  True,
  TestID -> "Protocol-MaskMatchesTheDefinition"
]

VerificationTest[
  WSJavaMask[ByteArray[{1, 2, 3}], ByteArray[{1}]],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Protocol-MaskRejectsAThreeByteKey"
]

VerificationTest[
  WSJavaMask[2^32, ByteArray[{1}]],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Protocol-MaskRejectsAKeyTooLarge"
]

VerificationTest[
  WSJavaAcceptKey["dGhlIHNhbXBsZSBub25jZQ=="],
  "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
  TestID -> "Protocol-AcceptKeyRfc"
]

$request = "GET /chat?x=1 HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: chat\r\n\r\n";

VerificationTest[
  Lookup[WSJavaHandshake[$request, {"chat"}], {"Status", "Path", "Query", "Subprotocol"}],
  {101, "/chat", "x=1", "chat"},
  TestID -> "Protocol-HandshakeAccepts"
]

VerificationTest[
  StringContainsQ[ByteArrayToString[WSJavaHandshake[$request]["Response"]], "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="],
  True,
  TestID -> "Protocol-HandshakeResponseBytes"
]

VerificationTest[
  WSJavaHandshake[StringReplace[$request, "Version: 13" -> "Version: 8"]]["Status"],
  426,
  TestID -> "Protocol-HandshakeWrongVersion"
]

VerificationTest[
  WSJavaHandshake["GET / HTTP/1.1\r\nHost: a\r\n"],
  Failure["WSJavaIncompleteRequest", _],
  SameTest -> MatchQ,
  TestID -> "Protocol-HandshakeIncomplete"
]

VerificationTest[
  Normal[WSJavaEncodeFrame["Hello"]],
  {16^^81, 16^^05, 16^^48, 16^^65, 16^^6c, 16^^6c, 16^^6f},
  TestID -> "Protocol-EncodeRfcText"
]

VerificationTest[
  With[{frames = WSJavaDecodeFrames[Join[WSJavaEncodeFrame["Hel", "Fin" -> False, "Mask" -> True],
      WSJavaEncodeFrame[StringToByteArray["lo"], "Opcode" -> "Continuation", "Mask" -> True], ByteArray[{16^^81}]]]},
    {frames["Frames"][[All, "Opcode"]], ByteArrayToString[Join @@ frames["Frames"][[All, "Payload"]]], Normal[frames["Rest"]]}],
  {{"Text", "Continuation"}, "Hello", {16^^81}},
  TestID -> "Protocol-DecodeFragmentsAndRest"
]

VerificationTest[
  WSJavaDecodeFrames[WSJavaEncodeFrame["unmasked"]]["CloseCode"],
  1002,
  {WSJava::frame},
  TestID -> "Protocol-DecodeRejectsUnmaskedClientFrames"
]

VerificationTest[
  WSJavaEncodeFrame["x", "Opcode" -> "Nonsense"],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Protocol-EncodeBadOpcode"
]

VerificationTest[
  WSJavaEncodeFrame["x", "mask" -> True],
  Failure["WSJavaUnknownOption", _],
  {WSJava::optx},
  SameTest -> MatchQ,
  TestID -> "Protocol-UnknownOptionIsRefused"
]
