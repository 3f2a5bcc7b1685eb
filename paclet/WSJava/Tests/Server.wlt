(* Tests for Kernel/Server.wl: WSJavaListen's arguments and options, the server object, DeleteObject. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$server = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|"MessageReceived" -> (WSJavaSend[#Connection, #Data] &)|>];

VerificationTest[
  {Head[$server], IntegerQ[$server["Port"]], $server["Running"], $server["Host"]},
  {WSJavaServer, True, True, "127.0.0.1"},
  TestID -> "Server-Starts"
]

VerificationTest[
  {Sort[$server["Properties"]] === Sort[{"Handle", "Host", "Port", "URL", "Token", "Running", "Connections", "Statistics",
    "HandlerFunctions", "HandlerFunctionsKeys", "HandlerFailures", "Properties"}],
   $server["Statistics"]["HandlerFailures"], $server["HandlerFailures"]},
  {True, 0, {}},
  TestID -> "Server-Properties"
]

VerificationTest[
  $server["Token"],
  None,
  TestID -> "Server-NoTokenOnLoopback"
]

VerificationTest[
  (* Beyond loopback a server without a token would let any machine on the network make the kernel
     evaluate: Java makes one up, and a client without it gets 401. *)
  Module[{s = WSJavaListen[{"0.0.0.0", 0}, "DrainInterval" -> None], token, result},
    token = s["Token"];
    result = {StringQ[token] && StringLength[token] >= 32,
      testStatus[s["Port"], "/"], testStatus[s["Port"], "/?token=" <> token]};
    DeleteObject[s];
    result],
  {True, 401, 101},
  TestID -> "Server-TokenGeneratedOffLoopback"
]

VerificationTest[
  Module[{s = WSJavaListen[{"0.0.0.0", 0}, "Token" -> None, "DrainInterval" -> None], result},
    result = {s["Token"], testStatus[s["Port"], "/"]};
    DeleteObject[s];
    result],
  {None, 101},
  TestID -> "Server-TokenNoneIsAnExplicitChoice"
]

VerificationTest[
  WSJavaListen[0, "port" -> 8080],
  Failure["WSJavaUnknownOption", _],
  {WSJava::optx},
  SameTest -> MatchQ,
  TestID -> "Server-UnknownOptionIsRefused"
]

VerificationTest[
  WSJavaListen[0, HandlerFunctions -> <|"Bogus" -> Print|>],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-UnknownEventIsRefused"
]

VerificationTest[
  (* 1.5*^4 seconds is a Real; ToString of it would give "1.5*^4", which Java rejects. *)
  Module[{s = WSJavaListen[0, "IdleTimeout" -> 1.5*^4, "DrainInterval" -> None]}, {Head[s], DeleteObject[s]}],
  {WSJavaServer, Null},
  TestID -> "Server-RealSecondsBecomeWholeMilliseconds"
]

VerificationTest[
  (* Compression is on by default: a client offering permessage-deflate gets it, and can turn it off. *)
  Module[{on = WSJavaListen[0, "DrainInterval" -> None], off = WSJavaListen[0, "Compression" -> False, "DrainInterval" -> None], result},
    result = {testExtensions[on["Port"], "permessage-deflate"], testExtensions[off["Port"], "permessage-deflate"]};
    DeleteObject /@ {on, off};
    result],
  {"permessage-deflate", None},
  TestID -> "Server-CompressionOnByDefaultAndOff"
]

VerificationTest[
  Module[{s = WSJavaListen[0, "Compression" -> <|"Level" -> 1, "Threshold" -> 0, "ContextTakeover" -> False|>, "DrainInterval" -> None], result},
    result = testExtensions[s["Port"], "permessage-deflate"];
    DeleteObject[s];
    result],
  "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
  TestID -> "Server-CompressionSettings"
]

VerificationTest[
  WSJavaListen[0, "Compression" -> <|"Level" -> 11|>],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-CompressionLevelIsChecked"
]

VerificationTest[
  (* TLS: the server runs and its URL says wss:// (the TLS itself is tested in Java). *)
  Module[{s = WSJavaListen[0, "TLS" -> "SelfSigned", "DrainInterval" -> None], result},
    result = {StringStartsQ[s["URL"], "wss://127.0.0.1:"], s["Running"]};
    DeleteObject[s];
    result],
  {True, True},
  TestID -> "Server-TLSSelfSigned"
]

VerificationTest[
  WSJavaListen[0, "TLS" -> <|"Certificate" -> "cert.pem"|>],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-TLSNeedsCertificateAndKey"
]

VerificationTest[
  (* Java refuses tokens shorter than 16 characters; WL says so before Java is asked, and the
     message describes the refused token rather than showing it. *)
  Module[{f = WSJavaListen[0, "Token" -> "fifteen-chars!!", "DrainInterval" -> None]},
    If[!FailureQ[f], DeleteObject[f]];    (* a wrong paclet must not leave a server behind *)
    {Head[f], First[f], StringFreeQ[ToString[Last[f]["MessageParameters"], InputForm], "fifteen-chars!!"]}],
  {Failure, "WSJavaBadOption", True},
  {WSJava::optv},
  TestID -> "Server-ShortTokenIsRefused"
]

VerificationTest[
  (* 16 characters is the least Java accepts: the server runs. *)
  Module[{s = WSJavaListen[0, "Token" -> "sixteen-chars-ok", "DrainInterval" -> None], result},
    result = {s["Running"], s["Token"]};
    DeleteObject[s];
    result],
  {True, "sixteen-chars-ok"},
  TestID -> "Server-SixteenCharacterTokenIsAccepted"
]

VerificationTest[
  (* "MaxMessageSize" -> Automatic (the default) sends Java no limit, so Java's own, which follows
     the heap of the kernel's JVM, applies; a number is sent as both limits; a server starts. *)
  Module[{pairs, s, result},
    pairs[opts___] := WSJava`Private`javaOptionPairs[WSJava`Private`listenSettings[0, None, {opts}]];
    s = WSJavaListen[0, "DrainInterval" -> None];
    result = {MemberQ[pairs[][[All, 1]], "max-message" | "max-frame"],
      SubsetQ[pairs["MaxMessageSize" -> 4096], {{"max-message", "4096"}, {"max-frame", "4096"}}], s["Running"]};
    DeleteObject[s];
    result],
  {False, True, True},
  TestID -> "Server-MaxMessageSizeAutomatic"
]

VerificationTest[
  (* Inside WLJS, Automatic is 16 MiB whatever the heap: its editor sends dropped files in 5 MiB chunks. *)
  Block[{System`$Env = <|"host" -> "127.0.0.1", "http" -> 20560, "wsprefix" -> False|>},
    SubsetQ[WSJava`Private`javaOptionPairs[WSJava`Private`listenSettings[0, None, {}]], {{"max-message", "16777216"}, {"max-frame", "16777216"}}]],
  True,
  TestID -> "Server-MaxMessageSizeInsideWLJS"
]

VerificationTest[
  WSJavaListen[0, "Compression" -> "yes"],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-CompressionMustBeBoolean"
]

VerificationTest[
  (* An HTML file of one's own at GET /: the page and its WebSocket share the server's origin. *)
  Module[{file = FileNameJoin[{$TemporaryDirectory, "wsjava-page-" <> ToString[$ProcessID] <> ".html"}], stream, s, body},
    WithCleanup[stream = OpenWrite[file], WriteString[stream, "<p>own page</p>"], Close[stream]];
    s = WSJavaListen[0, "Page" -> File[file], "DrainInterval" -> None];
    body = testGet[s["Port"], "/"];
    DeleteObject[s];
    DeleteFile[file];
    body],
  "<p>own page</p>",
  TestID -> "Server-ServesItsOwnPage"
]

VerificationTest[
  WSJavaListen[0, "Page" -> File["/no/such/page.html"]],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-APageMustBeAFile"
]

VerificationTest[
  WSJavaListen[0, "PingInterval" -> -1],
  Failure["WSJavaBadOption", _],
  {WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-NegativeSecondsAreRefused"
]

VerificationTest[
  WSJavaListen["not a port"],
  Failure["WSJavaBadArguments", _],
  {WSJava::args},
  SameTest -> MatchQ,
  TestID -> "Server-BadAddress"
]

VerificationTest[
  Module[{s = WSJavaListen[0, "AllowedOrigins" -> {"http://ok.example"}, "DrainInterval" -> None], a, b},
    a = testConnect[s, "Origin: http://ok.example\r\n"];
    b = testConnect[s, "Origin: http://evil.example\r\n"];
    Close[First[#]] & /@ {a, b};
    DeleteObject[s];
    {Last[a], Last[b]}],
  {"HTTP/1.1 101 Switching Protocols", "HTTP/1.1 403 Forbidden"},
  TestID -> "Server-AllowedOrigins"
]

VerificationTest[
  Block[{System`$Env = <|"host" -> "127.0.0.1", "http" -> 20560, "wsprefix" -> False|>},
    WSJava`Private`originPairs[Automatic]],
  {{"allow-origin", "http://127.0.0.1:20560"}, {"allow-origin", "http://localhost:20560"}, {"allow-origin", "http://[::1]:20560"}},
  TestID -> "Server-WLJSOriginsFromItsEnvironment"
]

VerificationTest[
  Block[{System`$Env = <|"host" -> "0.0.0.0", "http" -> 4000, "wsprefix" -> "ws"|>},
    MemberQ[WSJava`Private`originPairs[Automatic], {"allow-host-origin", "true"}]],
  True,
  TestID -> "Server-WLJSBehindItsProxyAcceptsTheForwardedHost"
]

VerificationTest[
  (* WLJS bound to 0.0.0.0 with no proxy: a browser on the LAN names this machine by one of its
     addresses or its name, with WLJS's http port; every one of them is allowed. *)
  Block[{System`$Env = <|"host" -> "0.0.0.0", "http" -> 20560, "ws" -> 20559, "wsprefix" -> False|>},
    With[{origins = Cases[WSJava`Private`originPairs[Automatic], {"allow-origin", o_} :> o]},
      {SubsetQ[origins, {"http://127.0.0.1:20560", "http://localhost:20560"}],
       AllTrue[Select[$MachineAddresses, StringQ[#] && StringFreeQ[#, ":"] &], MemberQ[origins, "http://" <> # <> ":20560"] &],
       !StringQ[$MachineName] || MemberQ[origins, "http://" <> $MachineName <> ":20560"],
       MemberQ[WSJava`Private`originPairs[Automatic], {"allow-host-origin", "true"}]}]],
  {True, True, True, False},
  TestID -> "Server-WLJSOnTheLANAllowsEveryNameOfThisMachine"
]

VerificationTest[
  (* Inside WLJS, "Token" -> Automatic asks for none even beyond loopback: WLJS's page cannot send
     one. Its UI origin still gets 101 and any other page 403. *)
  Block[{System`$Env = <|"host" -> "0.0.0.0", "http" -> 20560, "ws" -> 20559, "wsprefix" -> False|>},
    Module[{s = WSJavaListen[{"0.0.0.0", 0}, "DrainInterval" -> None], lan, evil, result},
      lan = testConnect[s, "Origin: http://" <> First[Select[$MachineAddresses, StringQ[#] && StringFreeQ[#, ":"] &], "127.0.0.1"] <> ":20560\r\n"];
      evil = testConnect[s, "Origin: http://evil.example\r\n"];
      Close[First[#]] & /@ {lan, evil};
      result = {s["Token"], Last[lan], Last[evil]};
      DeleteObject[s];
      result]],
  {None, "HTTP/1.1 101 Switching Protocols", "HTTP/1.1 403 Forbidden"},
  TestID -> "Server-WLJSNeedsNoTokenAndStillChecksOrigins"
]

VerificationTest[
  {WSJavaListen[0, "DrainInterval" -> 0], WSJavaListen[0, "DrainInterval" -> "often"]},
  {Failure["WSJavaBadOption", _], Failure["WSJavaBadOption", _]},
  {WSJava::optv, WSJava::optv},
  SameTest -> MatchQ,
  TestID -> "Server-DrainIntervalIsChecked"
]

VerificationTest[
  Module[{s = WSJavaListen[0, "DrainInterval" -> None]}, {DeleteObject[s], s["Running"], DeleteObject[s]}],
  {Null, False, Failure["WSJavaServerGone", _]},
  {WSJava::gone},
  SameTest -> MatchQ,
  TestID -> "Server-DeleteObjectStopsIt"
]

VerificationTest[
  Module[{s = WSJavaListen[0, "DrainInterval" -> 0.01], task},
    task = WSJava`Private`$servers[s[[1, "Handle"]]]["Task"];
    DeleteObject[s];
    WSJava`Private`taskAliveQ[task]],
  False,
  TestID -> "Server-StoppingRemovesTheDrainTask"
]

VerificationTest[
  WSJavaBroadcast[$server, ByteArray[{1, 2, 3}]],
  0,
  TestID -> "Server-BroadcastCountsClients"
]

DeleteObject[$server];
