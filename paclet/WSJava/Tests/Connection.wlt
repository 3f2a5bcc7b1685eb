(* Tests for Kernel/Connection.wl: properties, sends with Success or Failure, closing. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$server = WSJavaListen[0];
{$socket, $status} = testConnect[$server, "Origin: http://127.0.0.1\r\n"];
waitUntil[$server, Length[$server["Connections"]] == 1 &];
$conn = First[$server["Connections"]];

VerificationTest[
  {$conn["Path"], $conn["Query"], $conn["Open"], $conn["Server"] === $server, $conn["Headers"]["sec-websocket-version"]},
  {"/chat", "x=1", True, True, "13"},
  TestID -> "Connection-Properties"
]

VerificationTest[
  {WSJavaSend[$conn, "héllo"], First[testRead[$socket]]["Opcode"]},
  {Success["WSJavaSent", KeyValuePattern["ByteCount" -> 6]], "Text"},
  SameTest -> MatchQ,
  TestID -> "Connection-SendTextCountsUTF8Bytes"
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

DeleteObject[$server];
