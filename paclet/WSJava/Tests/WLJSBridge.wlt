(* Tests for Kernel/WLJSBridge.wl: WLJS's own handler object served by WSJavaListen, WLJS's own
   functions on a WSJavaConnection, and the "Closed" event WLJS's UI tears down on. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];
Get[FileNameJoin[{DirectoryName[$TestFileName], "WLJSFixture.wl"}]];

$evaluated = {};
$ws = CoffeeLiqueur`WebSocketHandler`WebSocketUHandler[];
With[{ws = $ws},
  ws["MessageHandler", "Evaluate"] = Function[True] -> Function[{client, data},
    AppendTo[$evaluated, ByteArrayToString[data]];
    CoffeeLiqueur`WebSocketHandler`WebSocketUSend[client, "echo:" <> ByteArrayToString[data]]]];
$server = WSJavaListen[0, $ws, "DrainInterval" -> None];
{$socket, $status} = testConnect[$server];

VerificationTest[
  (* WL-side state: the handler's own "Connections" is filled when WL handles the open. *)
  {$status, WSJava`Private`wljsHandlerQ[$ws], waitUntil[$server, $ws["Connections"]["Length"] == 1 &]},
  {"HTTP/1.1 101 Switching Protocols", True, True},
  TestID -> "WLJSBridge-WLJSHandlerObjectIsServed"
]

$conn = First[$ws["Connections"]["Elements"], None];

VerificationTest[
  testSend[$socket, "1+1"];
  waitUntil[$server, MemberQ[$evaluated, "1+1"] &];
  {CoffeeLiqueur`WebSocketHandler`$CurrenctUClient === $conn, First[testRead[$socket]]["Payload"]},
  {True, StringToByteArray["echo:1+1"]},
  TestID -> "WLJSBridge-MessagesReachWLJSHandlersAndRepliesGoBack"
]

VerificationTest[
  (* A handler set after the server started still counts: fields are read at each message. *)
  With[{ws = $ws}, ws["MessageHandler", "Ping"] = Function[{c, d}, ByteArrayToString[d] === "ping"] -> Function[{c, d}, "pong"]];
  Keys[$ws["MessageHandler"]],
  {"Evaluate", "Ping"},
  TestID -> "WLJSBridge-HandlersKeepTheirOrder"
]

VerificationTest[
  {CoffeeLiqueur`WebSocketHandler`WebSocketUSend[$conn, ByteArray[{104, 105}]], First[testRead[$socket]]["Opcode"],
   CoffeeLiqueur`WebSocketHandler`WebSocketUSend[$conn, ByteArray[{255, 0}]], First[testRead[$socket]]["Opcode"]},
  {2, "Text", 2, "Binary"},
  TestID -> "WLJSBridge-UTF8BytesGoAsTextOthersAsBinary"
]

VerificationTest[
  (* WLJS's WebSocketUSend is BinaryWrite of a frame it encoded; over 16 MiB must still go. *)
  With[{big = StringRepeat["x", 17 2^20]},
    {BinaryWrite[$conn, WSJavaEncodeFrame[big]], Total[Length[#["Payload"]] & /@ testRead[$socket, 30]]}],
  {17 2^20 + 10, 17 2^20},
  TestID -> "WLJSBridge-BinaryWriteSendsWLJSFramesOfAnySize"
]

VerificationTest[
  BinaryWrite[$conn, ByteArray[{129, 5, 104}]],
  $Failed,
  TestID -> "WLJSBridge-ACutFrameIsAFailedWrite"
]

VerificationTest[
  Module[{closed = False},
    EventHandler[$conn, {"Closed" -> Function[x, closed = x]}];
    Close[$socket];
    waitUntil[$server, closed &];
    {closed, $ws["Connections"]["MemberQ", $conn], CoffeeLiqueur`WebSocketHandler`WebSocketUSend[$conn, "late"]}],
  {True, False, $Failed},
  TestID -> "WLJSBridge-ClosedEventFiresAndSendsThenFail"
]

VerificationTest[
  Module[{s = WSJavaListen[0, $ws, "DrainInterval" -> None], socket},
    (* No handler matches: WLJS's default handler closes the client with Close[client]. *)
    With[{ws = $ws}, ws["MessageHandler"] = <||>];
    socket = First[testConnect[s]];
    testSend[socket, "unhandled"];
    WSJavaWait[s, 0.5];
    With[{f = testRead[socket]}, Close[socket]; DeleteObject[s]; f[[1, "Opcode"]]]],
  "Close",
  TestID -> "WLJSBridge-DefaultHandlerClosesTheClient"
]

DeleteObject[$server];   (* $socket was closed by the "Closed" test *)
