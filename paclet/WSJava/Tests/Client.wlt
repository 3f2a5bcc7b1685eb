(* Tests for Kernel/Client.wl: WSJavaConnect against a WSJavaListen server in the same kernel. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$server = WSJavaListen[0, HandlerFunctions -> <|"MessageReceived" -> (WSJavaSend[#Connection, "echo: " <> #Data] &)|>];
$heard = {};
$closes = {};
$client = WSJavaConnect[$server["URL"] <> "room?x=1", (AppendTo[$heard, #Data]) &,
  HandlerFunctions -> <|"ConnectionClosed" -> (AppendTo[$closes, #CloseCode] &)|>];

(* Both ends are drained here, one after the other, until test[] holds or t seconds pass. *)
waitBoth[test_, t_ : 5] := Module[{deadline = AbsoluteTime[] + t},
  While[!TrueQ[test[]] && AbsoluteTime[] < deadline, WSJavaWait[$server, 0.02]; WSJavaWait[$client, 0.02]];
  TrueQ[test[]]
];

VerificationTest[
  {Head[$client], $client["Open"], $client["URL"] === $server["URL"] <> "room?x=1", $client["Connection"]["Path"], $client["Connection"]["Query"]},
  {WSJavaClient, True, True, "/room", "x=1"},
  TestID -> "Client-Opens"
]

VerificationTest[
  Sort[$client["Properties"]] === Sort[{"Handle", "URL", "Connection", "Open", "Subprotocol", "Extensions", "Headers", "Properties"}],
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
  WSJavaConnect["ws://127.0.0.1:1/"],
  Failure["WSJavaJavaError", _],
  {WSJava::javaerr},
  SameTest -> MatchQ,
  TestID -> "Client-RefusedConnectionIsAFailure"
]

VerificationTest[
  (* A self-signed certificate is not in the system's trust store: the default TLS refuses it. *)
  Module[{tls = WSJavaListen[0, "TLS" -> "SelfSigned"], result},
    result = WSJavaConnect[tls["URL"], "ConnectTimeout" -> 5];
    DeleteObject[tls];
    result],
  Failure["WSJavaJavaError", _],
  {WSJava::javaerr},
  SameTest -> MatchQ,
  TestID -> "Client-UntrustedCertificateIsRefused"
]

DeleteObject[$server];
