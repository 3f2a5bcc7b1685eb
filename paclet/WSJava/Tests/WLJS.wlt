(* Tests for Kernel/WLJS.wl: the drop-in handler for WLJS-style code run without WLJS. *)

Needs["WSJava`"];
Needs["WSJava`WLJS`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$ws = WebSocketUHandler[];
$ws["MessageHandler", "Ping"] = Function[{client, data}, ByteArrayToString[data] === "ping"] -> Function[{client, data}, "pong"];
$ws["MessageHandler", "Evaluate"] = Function[True] -> Function[{client, data}, {"evaluated", ByteArrayToString[data]}];

VerificationTest[
  MemberQ[$ContextPath, "WSJava`WLJS`"],
  True,
  TestID -> "WLJS-NeedsPutsItOnTheContextPath"
]

VerificationTest[
  (* The defect this replaces: Set on a variable never reached an UpValue of its value. *)
  Keys[$ws["MessageHandler"]],
  {"Ping", "Evaluate"},
  TestID -> "WLJS-SetThroughAVariableReachesTheHandler"
]

VerificationTest[
  {$ws["fakeClient", StringToByteArray["ping"]], $ws["fakeClient", StringToByteArray["1+1"]], $CurrenctUClient},
  {"pong", {"evaluated", "1+1"}, "fakeClient"},
  TestID -> "WLJS-FirstMatchingConditionWins"
]

VerificationTest[
  Module[{h},
    h = WebSocketUHandler[];
    h["Deserializer"] = Function[data, ToUpperCase[ByteArrayToString[data]]];
    h["MessageHandler", "Any"] = Function[True] -> Function[{client, expr}, expr];
    h["client", StringToByteArray["abc"]]],
  "ABC",
  TestID -> "WLJS-DeserializerCanBeReplaced"
]

VerificationTest[
  Module[{s = WSJavaListen[0, $ws], socket, reply},
    socket = First[testConnect[s]];
    With[{ws = $ws}, ws["MessageHandler", "Evaluate"] = Function[True] -> Function[{c, d}, WebSocketUSend[c, "got " <> ByteArrayToString[d]]]];
    testSend[socket, "x"];
    WSJavaWait[s, 0.3];
    reply = testRead[socket];
    DeleteObject[s];
    ByteArrayToString[First[reply]["Payload"]]],
  "got x",
  TestID -> "WLJS-ServedByWSJavaListen"
]

VerificationTest[
  Module[{s = WSJavaListen[0], a, b, channel},
    a = First[testConnect[s]]; b = First[testConnect[s]];
    waitUntil[s, Length[s["Connections"]] == 2 &];
    channel = WebSocketUChannel["updates", s["Connections"]];
    WSJavaClose[First[s["Connections"]]];
    WSJavaWait[s, 0.3];
    {WebSocketUSend[channel, "hello"], Length[channel["Connections"]]}],
  {1, 1},
  TestID -> "WLJS-ChannelDropsClientsWhoseSendFails"
]
