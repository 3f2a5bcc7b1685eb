(* Tests for Kernel/Connection.wl: properties, sends with Success or Failure, closing.
   "DrainInterval" -> None: only this file's own WSJavaWait handles events, so what WL has
   handled is known at every step (a scheduled task could run between any two). *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$opened = {};
$server = WSJavaListen[0, "DrainInterval" -> None,
  HandlerFunctions -> <|"ConnectionOpened" -> (AppendTo[$opened, #Connection] &)|>];
(* The server's own origin, port included: a browser's Origin always names the port, and the
   server accepts exactly its own (http://127.0.0.1 without it would get 403). *)
{$socket, $status} = testConnect[$server, "Origin: " <> testOrigin[$server] <> "\r\n"];

VerificationTest[
  {$status, waitUntil[$server, Length[$opened] == 1 &]},
  {"HTTP/1.1 101 Switching Protocols", True},
  TestID -> "Connection-Upgrades"
]

$conn = First[$opened, None];

VerificationTest[
  {$conn["Path"], $conn["Query"], $conn["Origin"], $conn["Open"], $conn["Server"] === $server, $conn["Headers"]["sec-websocket-version"]},
  {"/chat", "x=1", testOrigin[$server], True, True, "13"},
  TestID -> "Connection-Properties"
]

VerificationTest[
  {WSJavaSend[$conn, "héllo"], First[testRead[$socket]]["Opcode"]},
  {Success["WSJavaSent", KeyValuePattern["ByteCount" -> 6]], "Text"},
  SameTest -> MatchQ,
  TestID -> "Connection-SendTextCountsUTF8Bytes"
]

VerificationTest[
  (* The Success's template names its parameter, and the parameter is there: "Sent 6 bytes." *)
  With[{s = WSJavaSend[$conn, "héllo"]}, testRead[$socket]; TemplateApply[StringTemplate[s["MessageTemplate"]], s["MessageParameters"]]],
  "Sent 6 bytes.",
  TestID -> "Connection-SuccessMessageIsFilledIn"
]

VerificationTest[
  (* Beyond the BMP: 4 UTF-8 bytes for the emoji, as a text frame, exactly those bytes. *)
  With[{s = WSJavaSend[$conn, "a\|01F600"], frames = testRead[$socket]},
    {s["ByteCount"], First[frames]["Opcode"], Normal[First[frames]["Payload"]]}],
  {5, "Text", {97, 240, 159, 152, 128}},
  TestID -> "Connection-TextBeyondTheBMPIsSentAsUTF8"
]

VerificationTest[
  {WSJavaSend[$conn, ByteArray[{255}]], First[testRead[$socket]]["Payload"]},
  {Success["WSJavaSent", _], ByteArray[{255}]},
  SameTest -> MatchQ,
  TestID -> "Connection-SendBinary"
]

VerificationTest[
  WSJavaSend[$conn, 42],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Connection-SendBadArguments"
]

VerificationTest[
  WSJavaSend[WSJavaConnection[$server["Handle"], 999999], "nobody"],
  Failure["WSJavaNotOpen", _],
  {WSJava::notopen},
  SameTest -> MatchQ,
  TestID -> "Connection-SendToNobody"
]

VerificationTest[
  {WSJavaClose[$conn, 4000, "bye"], First[testRead[$socket]]["Opcode"]},
  {Success["WSJavaClosing", _], "Close"},
  SameTest -> MatchQ,
  TestID -> "Connection-Close"
]

VerificationTest[
  {WSJavaClose[$conn, 999], Close[$conn]},
  {Failure["WSJavaBadArguments", _], $conn},
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Connection-BadCloseCodeAndQuietClose"
]

Close[$socket];
DeleteObject[$server];
