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
  Module[{s = WSJavaListen[0, $ws, "DrainInterval" -> None], socket, reply},
    socket = First[testConnect[s]];
    With[{ws = $ws}, ws["MessageHandler", "Evaluate"] = Function[True] -> Function[{c, d}, WebSocketUSend[c, "got " <> ByteArrayToString[d]]]];
    testSend[socket, "x"];
    WSJavaWait[s, 0.3];
    reply = testRead[socket];
    Close[socket];
    DeleteObject[s];
    ByteArrayToString[First[reply]["Payload"]]],
  "got x",
  TestID -> "WLJS-ServedByWSJavaListen"
]

VerificationTest[
  Module[{opened = {}, s, a, b, channel, result},
    s = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|"ConnectionOpened" -> (AppendTo[opened, #Connection] &)|>];
    a = First[testConnect[s]]; b = First[testConnect[s]];
    waitUntil[s, Length[opened] == 2 &];
    channel = WebSocketUChannel["updates", opened];
    WSJavaClose[First[opened]];
    WSJavaWait[s, 0.3];
    result = {WebSocketUSend[channel, "hello"], Length[channel["Connections"]]};
    Close /@ {a, b};
    DeleteObject[s];
    result],
  {1, 1},
  TestID -> "WLJS-ChannelDropsClientsWhoseSendFails"
]

VerificationTest[
  (* Ways to hold a handler other than ws = WebSocketUHandler[]: the registration either reaches
     it or fails loudly (Set::write: WebSocketUHandler is Protected), never vanishes silently. *)
  {Quiet[Check[Module[{m = WebSocketUHandler[]}, m["MessageHandler", "X"] = (True &) -> Identity; Keys[m["MessageHandler"]]],
      "refused", Set::write]],
   Quiet[Check[Module[{a, b}, {a, b} = {WebSocketUHandler[], WebSocketUHandler[]}; a["MessageHandler", "X"] = (True &) -> Identity;
      Keys[a["MessageHandler"]]], "refused", Set::write]]},
  {{"X"} | "refused", {"X"} | "refused"},
  SameTest -> MatchQ,
  TestID -> "WLJS-ARegistrationIsNeverLostSilently"
]

VerificationTest[
  (* := keeps the rule unevaluated until the handlers are read; =. removes a handler, or puts a
     field back to its default. *)
  Module[{h, counter = 0, result},
    h = WebSocketUHandler[];
    h["MessageHandler", "Late"] := (counter++; Function[True] -> Function[{c, d}, "late"]);
    h["MessageHandler", "Gone"] = Function[True] -> Function[{c, d}, "gone"];
    h["MessageHandler", "Gone"] =.;
    h["Deserializer"] = ToUpperCase;
    h["Deserializer"] =.;
    result = {counter, Keys[h["MessageHandler"]], h["client", StringToByteArray["x"]], h["Deserializer"]};
    result],
  {0, {"Late"}, "late", Identity},
  TestID -> "WLJS-SetDelayedAndUnsetWorkThroughAVariable"
]

VerificationTest[
  (* The variable's rules leave its attributes alone: a Module variable stays Temporary. *)
  Module[{h}, h = WebSocketUHandler[]; MemberQ[Attributes[h], Temporary]],
  True,
  TestID -> "WLJS-AssigningKeepsAModuleVariableTemporary"
]
