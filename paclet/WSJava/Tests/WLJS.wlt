(* Tests for Kernel/WLJS.wl: the WLJS-compatible handler object, dispatch order, channels. *)

Needs["WSJava`WLJS`"];

$ws = WebSocketUHandler[];
$ws["MessageHandler", "Ping"] = Function[{client, data}, ByteArrayToString[data] === "ping"] -> Function[{client, data}, "pong"];
$ws["MessageHandler", "Evaluate"] = Function[True] -> Function[{client, data}, {"evaluated", ByteArrayToString[data]}];

VerificationTest[
  Keys[$ws["MessageHandler"]],
  {"Ping", "Evaluate"},
  TestID -> "WLJS-HandlersKeepTheirOrder"
]

VerificationTest[
  {$ws["fakeClient", StringToByteArray["ping"]], $ws["fakeClient", StringToByteArray["1+1"]]},
  {"pong", {"evaluated", "1+1"}},
  TestID -> "WLJS-FirstMatchingConditionWins"
]

VerificationTest[
  $ws["fakeClient", StringToByteArray["x"]]; $CurrenctUClient,
  "fakeClient",
  TestID -> "WLJS-CurrentClientIsSet"
]

VerificationTest[
  Module[{h = WebSocketUHandler[]},
    h["Deserializer"] = Function[data, ToUpperCase[ByteArrayToString[data]]];
    h["MessageHandler", "Any"] = Function[True] -> Function[{client, expr}, expr];
    h["client", StringToByteArray["abc"]]],
  "ABC",
  TestID -> "WLJS-DeserializerCanBeReplaced"
]

VerificationTest[
  WebSocketUChannel["updates", {}]["Connections"],
  {},
  TestID -> "WLJS-EmptyChannel"
]

VerificationTest[
  WSJavaWLJSListen["127.0.0.1", "not a port", $ws],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "WLJS-ListenBadArguments"
]

VerificationTest[
  Module[{server = WSJavaWLJSListen["127.0.0.1", 0, $ws, "AutoDrain" -> False], result},
    result = {Head[server], server["Running"]};
    WSJavaServerStop[server];
    result],
  {WSJavaServerObject, True},
  TestID -> "WLJS-ListenStartsAWSJavaServer"
]
