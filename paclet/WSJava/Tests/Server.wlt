(* Tests for Kernel/Server.wl: a real server, a raw TCP client from WL, handlers on the main thread. *)

Needs["WSJava`"];

$received = {};
$server = WSJavaServerStart[
  <|"Message" -> Function[{conn, msg}, AppendTo[$received, msg]; WSJavaSend[conn, msg]],
    "Close" -> Function[{conn, code, reason}, AppendTo[$received, {"closed", code}]]|>,
  "Port" -> 0, "AutoDrain" -> False];

VerificationTest[
  {Head[$server], IntegerQ[$server["Port"]], $server["Running"]},
  {WSJavaServerObject, True, True},
  TestID -> "Server-Starts"
]

$socket = SocketConnect[{"127.0.0.1", $server["Port"]}, "TCP"];
WriteString[$socket, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"];

VerificationTest[
  StringStartsQ[ByteArrayToString[SocketReadMessage[$socket]], "HTTP/1.1 101 Switching Protocols"],
  True,
  TestID -> "Server-Upgrades"
]

VerificationTest[
  BinaryWrite[$socket, WSJavaEncodeFrame["hello from WL", "Mask" -> True]];
  WSJavaDrain[$server, 2] >= 1;
  ByteArrayToString[First[WSJavaDecodeFrames[SocketReadMessage[$socket], "Role" -> "Client"]["Frames"]]["Payload"]],
  "hello from WL",
  TestID -> "Server-EchoesThroughAWLHandler"
]

VerificationTest[
  {Length[WSJavaConnections[$server]], $server["Stats"]["MessagesIn"] >= 1, WSJavaConnections[$server][[1]]["Path"]},
  {1, True, "/"},
  TestID -> "Server-ConnectionsAndStats"
]

VerificationTest[
  WSJavaBroadcast[$server, ByteArray[{1, 2, 3}]],
  1,
  TestID -> "Server-Broadcast"
]

VerificationTest[
  WSJavaSend[WSJavaConnection[$server["Handle"], 999999], "nobody"],
  Failure["WSJavaNotOpen", _],
  {WSJava::notopen},
  SameTest -> MatchQ,
  TestID -> "Server-SendToAClosedConnection"
]

VerificationTest[
  WSJavaServerStart[<|"Bogus" -> Print|>],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Server-RejectsUnknownHandlers"
]

VerificationTest[
  WSJavaServerStop[$server]; {$server["Running"], MemberQ[$received, {"closed", 1001}]},
  {False, True},
  TestID -> "Server-StopSends1001AndRunsCloseHandlers"
]

Close[$socket];
