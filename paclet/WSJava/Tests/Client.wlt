(* Tests for Kernel/Client.wl: WSJavaConnect against a WSJavaListen server in the same kernel.
   Both ends use "DrainInterval" -> None: waitBoth is the only drainer, so what WL has handled is
   known at every step. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$server = WSJavaListen[0, "DrainInterval" -> None,
  HandlerFunctions -> <|"MessageReceived" -> (WSJavaSend[#Connection, "echo: " <> #Data] &)|>];
$heard = {};
$closes = {};
$client = WSJavaConnect[$server["URL"] <> "room?x=1", (AppendTo[$heard, #Data]) &, "DrainInterval" -> None,
  HandlerFunctions -> <|"ConnectionClosed" -> (AppendTo[$closes, #CloseCode] &)|>];

(* Both ends are drained here, one after the other, until test[] holds or t seconds pass. *)
waitBoth[test_, t_ : 5] := Module[{deadline = AbsoluteTime[] + t},
  While[!TrueQ[test[]] && AbsoluteTime[] < deadline, WSJavaWait[$server, 0.02]; WSJavaWait[$client, 0.02]];
  TrueQ[test[]]
];

VerificationTest[
  {Head[$client], waitBoth[$client["Connection"]["Path"] === "/room" &], $client["Open"],
   $client["URL"] === $server["URL"] <> "room?x=1", $client["Connection"]["Query"]},
  {WSJavaClient, True, True, True, "x=1"},
  TestID -> "Client-Opens"
]

VerificationTest[
  Sort[$client["Properties"]] === Sort[{"Handle", "URL", "Connection", "Open", "Subprotocol", "Extensions", "Headers",
    "HandlerFailures", "Properties"}] && $client["Connection"]["Topics"] === {},
  True,
  TestID -> "Client-Properties"
]

VerificationTest[
  (* The server compresses by default and the client offers it. *)
  $client["Extensions"],
  "permessage-deflate",
  TestID -> "Client-DeflateAgreed"
]

VerificationTest[
  {WSJavaSend[$client, "héllo"], waitBoth[$heard === {"echo: héllo"} &], $heard},
  {Success["WSJavaSent", KeyValuePattern["ByteCount" -> 6]], True, {"echo: héllo"}},
  SameTest -> MatchQ,
  TestID -> "Client-SendsAndHearsTheEcho"
]

VerificationTest[
  (* Beyond the BMP, both ways: sent as UTF-8, echoed, received as one character. *)
  {WSJavaSend[$client, "\|01F600"]["ByteCount"], waitBoth[Length[$heard] == 2 &], Last[$heard] === "echo: \|01F600"},
  {4, True, True},
  TestID -> "Client-TextBeyondTheBMPBothWays"
]

VerificationTest[
  {DeleteObject[$client], $closes, $client["Open"]},
  {Null, {1000}, False},
  TestID -> "Client-DeleteObjectClosesAndRunsTheCloseHandler"
]

VerificationTest[
  WSJavaSend[$client, "after the end"],
  Failure["WSJavaNotOpen", _],
  {WSJava::notopen},
  SameTest -> MatchQ,
  TestID -> "Client-SendAfterCloseIsAFailure"
]

VerificationTest[
  (* When the server closes, WSJavaWait[client] returns once the close handler has run. *)
  Module[{closes = {}, c, conns, result},
    c = WSJavaConnect[$server["URL"], "DrainInterval" -> None,
      HandlerFunctions -> <|"ConnectionClosed" -> (AppendTo[closes, #CloseCode] &)|>];
    WSJavaWait[$server, 0.3];
    conns = $server["Connections"];
    Quiet[WSJavaClose[#, 4001, "bye"]] & /@ conns;   (* a connection still closing may be listed *)
    WSJavaWait[c, 10];
    result = {conns =!= {}, closes};
    Quiet[DeleteObject[c]];
    result],
  {True, {4001}},
  TestID -> "Client-WaitReturnsAfterTheServerClosed"
]

VerificationTest[
  (* A client that stays connected: its server stops (1001) and a new one starts on the same port;
     the client reconnects, says so, and sends its "OpenMessages" first on every open. *)
  Module[{heard = {}, events = {}, first, second, port, client, during, result},
    first = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|"MessageReceived" -> (WSJavaSend[#Connection, "1:" <> #Data] &)|>];
    port = first["Port"];
    client = WSJavaConnect[first["URL"], AppendTo[heard, #Data] &, "DrainInterval" -> None,
      "Reconnect" -> <|"InitialDelay" -> 0.1, "MaxDelay" -> 0.5, "OpenMessages" -> {"hello"}|>,
      HandlerFunctions -> <|"Reconnecting" -> (AppendTo[events, {"reconnecting", #Attempt, NumericQ[#Delay]}] &),
        "ConnectionReopened" -> (AppendTo[events, "reopened"] &)|>];
    Do[If[!MemberQ[heard, "1:hello"], WSJavaWait[first, 0.02]; WSJavaWait[client, 0.02]], {250}];
    DeleteObject[first];
    (* Between connections a send is refused, not queued (the README says so). *)
    Do[If[!MemberQ[events, {"reconnecting", _, _}], WSJavaWait[client, 0.02]], {250}];
    during = WSJavaSend[client, "while away"];
    second = WSJavaListen[port, "DrainInterval" -> None, HandlerFunctions -> <|"MessageReceived" -> (WSJavaSend[#Connection, "2:" <> #Data] &)|>];
    Do[If[!MemberQ[heard, "2:hello"], WSJavaWait[second, 0.02]; WSJavaWait[client, 0.02]], {500}];
    result = {heard, MemberQ[events, "reopened"], MemberQ[events, {"reconnecting", 1, True}], Head[during], WSJavaSend[client, "after"]["ByteCount"]};
    DeleteObject[client];
    DeleteObject[second];
    result],
  {{"1:hello", "2:hello"}, True, True, Failure, 5},
  {WSJava::notopen},
  TestID -> "Client-ReconnectsAndSendsItsOpenMessagesAgain"
]

VerificationTest[
  (* With no server to come back, it gives up after its attempts: the handler says why, and the
     connection ends with 1006, after which WSJavaWait[client] returns. *)
  Module[{closes = {}, reasons = {}, s, client},
    s = WSJavaListen[0, "DrainInterval" -> None];
    client = WSJavaConnect[s["URL"], "DrainInterval" -> None, "Reconnect" -> <|"InitialDelay" -> 0.05, "MaxDelay" -> 0.1, "Attempts" -> 2|>,
      HandlerFunctions -> <|"ReconnectGaveUp" -> (AppendTo[reasons, #Reason] &), "ConnectionClosed" -> (AppendTo[closes, #CloseCode] &)|>];
    DeleteObject[s];
    WSJavaWait[client, 20];
    Quiet[DeleteObject[client]];
    {Length[reasons], AllTrue[reasons, StringQ], Last[closes, None]}],
  {1, True, 1006},
  TestID -> "Client-GivesUpAfterItsAttempts"
]

VerificationTest[
  (* Close[client] while it reconnects ends it: it stops trying, and WSJavaWait[client] returns. *)
  Module[{events = {}, s, client, waited},
    s = WSJavaListen[0, "DrainInterval" -> None];
    client = WSJavaConnect[s["URL"], "DrainInterval" -> None, "Reconnect" -> <|"InitialDelay" -> 0.2, "MaxDelay" -> 0.5|>,
      HandlerFunctions -> <|"Reconnecting" -> (AppendTo[events, #Attempt] &)|>];
    DeleteObject[s];
    Do[If[events === {}, WSJavaWait[client, 0.02]], {250}];
    Close[client];
    waited = AbsoluteTiming[WSJavaWait[client, 30]][[1]];
    Quiet[DeleteObject[client]];
    {events =!= {}, waited < 10}],
  {True, True},
  TestID -> "Client-CloseWhileReconnectingEndsIt"
]

VerificationTest[
  (* Keepalive pings to a server that answers them: still open after several intervals. *)
  Module[{s, client, open},
    s = WSJavaListen[0, "DrainInterval" -> None];
    client = WSJavaConnect[s["URL"], "DrainInterval" -> None, "PingInterval" -> 0.1, "PongTimeout" -> 1];
    Do[WSJavaWait[s, 0.05]; WSJavaWait[client, 0.05], {10}];
    open = client["Open"];
    DeleteObject[client];
    DeleteObject[s];
    open],
  True,
  TestID -> "Client-KeepalivePingsAreAnswered"
]

VerificationTest[
  (* A longest delay shorter than the first, or an open message beyond the BMP (it would cross
     J/Link as a String), is refused here rather than in Java. *)
  {WSJavaConnect["ws://127.0.0.1:1/", "Reconnect" -> <|"InitialDelay" -> 5, "MaxDelay" -> 1|>],
   WSJavaConnect["ws://127.0.0.1:1/", "Reconnect" -> <|"OpenMessages" -> {"\|01F600"}|>]},
  {Failure["WSJavaBadOption", _], Failure["WSJavaBadOption", _]},
  {WSJava::optv, WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Client-ReconnectDelaysAndOpenMessagesAreChecked"
]

VerificationTest[
  (* A first delay longer than the default longest (30 s) raises the longest, when none is given. *)
  Module[{s, client, head},
    s = WSJavaListen[0, "DrainInterval" -> None];
    client = WSJavaConnect[s["URL"], "DrainInterval" -> None, "Reconnect" -> <|"InitialDelay" -> 60|>];
    head = Head[client];
    If[head === WSJavaClient, DeleteObject[client]];
    DeleteObject[s];
    head],
  WSJavaClient,
  TestID -> "Client-ALongFirstDelayRaisesTheLongest"
]

VerificationTest[
  {WSJavaConnect["ws://127.0.0.1:1/", "Reconnect" -> <|"Bogus" -> 1|>], WSJavaConnect["ws://127.0.0.1:1/", "Reconnect" -> "often"]},
  {Failure["WSJavaBadOption", _], Failure["WSJavaBadOption", _]},
  {WSJava::optv, WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Client-ReconnectSettingsAreChecked"
]

VerificationTest[
  WSJavaConnect["http://127.0.0.1/"],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Client-OnlyWebSocketURLs"
]

VerificationTest[
  WSJavaConnect[$server["URL"], "Bogus" -> 1],
  Failure["WSJavaUnknownOption", _],
  {WSJava::optx},
  SameTest -> MatchQ,
  TestID -> "Client-UnknownOptionIsRefused"
]

VerificationTest[
  (* No connect timeout would block the kernel's own evaluation for as long as a server likes. *)
  WSJavaConnect[$server["URL"], "ConnectTimeout" -> None],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Client-ConnectTimeoutMustBeSeconds"
]

VerificationTest[
  (* The text is Java's exception (a java.* class and its message), not "J/Link refused ...". *)
  With[{f = WSJavaConnect["ws://127.0.0.1:1/", "DrainInterval" -> None]},
    If[Head[f] === WSJavaClient, DeleteObject[f]];   (* only if it wrongly connected *)
    {f[[1]], StringStartsQ[First[f["MessageParameters"]], "java." | "javax." | "wsjava."]}],
  {"WSJavaJavaError", True},
  {WSJava::javaerr},
  TestID -> "Client-RefusedConnectionIsAFailure"
]

VerificationTest[
  (* A self-signed certificate is not in the system's trust store: the default TLS refuses it. *)
  Module[{tls = WSJavaListen[0, "TLS" -> "SelfSigned", "DrainInterval" -> None], result},
    result = WSJavaConnect[tls["URL"], "ConnectTimeout" -> 5, "DrainInterval" -> None];
    If[Head[result] === WSJavaClient, DeleteObject[result]];   (* only if it wrongly connected *)
    DeleteObject[tls];
    result],
  Failure["WSJavaJavaError", _],
  {WSJava::javaerr},
  SameTest -> MatchQ,
  TestID -> "Client-UntrustedCertificateIsRefused"
]

DeleteObject[$server];
