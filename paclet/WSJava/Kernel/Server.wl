(* ::Package:: *)

(* The server object: WSJavaListen starts one, like SocketListen; DeleteObject stops it. Java does
   the sockets, the protocol and the masking, and queues events; Events.wl drains the queue on
   the kernel's own evaluation thread and runs the handlers there, so no Java thread ever calls
   into the kernel. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::gone = "`1` is not a running WSJava server or client of this kernel.";

(* handle -> <|"Object", "HandlerFunctions", "HandlerFunctionsKeys", "Handler", "Link", "Task", "DrainInterval"|> *)
If[!AssociationQ[$servers], $servers = <||>];

$statNames = {"Connections", "MessagesIn", "MessagesOut", "BytesIn", "BytesOut", "PendingEvents"};
$serverProperties = {"Handle", "Host", "Port", "URL", "Token", "Running", "Connections", "Statistics",
  "HandlerFunctions", "HandlerFunctionsKeys", "HandlerFailures", "Properties"};

(* Each option's comment is its entry in docs/wl-reference.md (WlReference reads it). *)
Options[WSJavaListen] = {
  HandlerFunctions -> <||> (* <|"ConnectionOpened" -> f, "MessageReceived" -> f, "ConnectionClosed" -> f, "ErrorOccurred" -> f|>: each event's handler gets one association *),
  HandlerFunctionsKeys -> Automatic (* the keys of that association: by default "Event", "Server", "Connection", "Timestamp", and "Data", "DataType", "CloseCode", "CloseReason" or "Message"; also "DataByteArray", "Path", "Query", "Origin", "RemoteAddress", "Subprotocol" *),
  "AllowedOrigins" -> Automatic (* Automatic (the server's own origins, and WLJS's inside WLJS), All, or a list of origins *),
  "Token" -> Automatic (* Automatic (none on loopback, a generated one beyond it, given by server["Token"]), None, or a String of at least 16 printable ASCII characters that clients pass as ?token= *),
  "MaxMessageSize" -> Automatic (* Automatic (16 MiB, or a 64th of Java's heap if less, at least 1 MiB; 16 MiB inside WLJS) or bytes *),
  "MaxConnections" -> 20000 (* the most clients at once *),
  "Subprotocols" -> {} (* the subprotocols to choose from, most preferred first *),
  "Compression" -> True (* True (permessage-deflate with clients that offer it), False, or <|"Level" -> 0..9, "Threshold" -> bytes, "ContextTakeover" -> True or False|> *),
  "TLS" -> None (* None, "SelfSigned", <|"Certificate" -> file, "Key" -> file|> in PEM, or <|"KeyStore" -> file, "Password" -> string|>: the server then serves wss:// and https:// *),
  "PingInterval" -> None (* seconds between pings, or None *),
  "IdleTimeout" -> None (* seconds without traffic before a client is dropped, or None *),
  "Page" -> Automatic (* Automatic (the demo page at GET /), None, or an HTML file of your own, served at GET / from the server's own origin *),
  "DrainInterval" -> 0.01 (* seconds between the scheduled task's drains, or None: only WSJavaWait handles events *)
};

(* ---- start ---- *)

addressQ[port_Integer] := 0 <= port <= 65535;
addressQ[{host_String, port_Integer}] := 0 <= port <= 65535;
addressQ[_] := False;

hostAndPort[port_Integer] := {"127.0.0.1", port};
hostAndPort[{host_String, port_Integer}] := {host, port};

optionRulesQ[x_] := MatchQ[x, (_Rule | _RuleDelayed) | {(_Rule | _RuleDelayed) ...}];

WSJavaListen[address_?addressQ, opts : OptionsPattern[]] := listen[address, None, {opts}];
WSJavaListen[address_?addressQ, handler : Except[_?optionRulesQ], opts : OptionsPattern[]] := listen[address, handler, {opts}];
WSJavaListen[args___] := argumentFailure[WSJavaListen, {args},
  "a port or {host, port}, optionally a handler function or a WLJS WebSocketUHandler, then options"];

listen[address_, handler_, opts_List] := Module[{settings, javaOptions, handle, link, server},
  settings = listenSettings[address, handler, opts];
  If[FailureQ[settings], Return[settings]];
  javaOptions = javaOptionPairs[settings];
  handle = javaCall[WSJavaLink`startServer[javaOptions[[All, 1]], javaOptions[[All, 2]]]];
  If[FailureQ[handle], Return[handle]];
  link = JavaLink[];
  server = WSJavaServer[<|"Handle" -> handle, "Host" -> settings["Host"],
    "Port" -> javaCall[WSJavaLink`serverPort[handle]], "URL" -> javaCall[WSJavaLink`serverUrl[handle]],
    "Token" -> Replace[javaCall[WSJavaLink`serverToken[handle]], Null -> None]|>];
  register[handle, server, settings, handler, link];
  server
];

(* Every option checked once, here, and turned into WL values; a Failure names the first bad one. *)
listenSettings[address_, handler_, opts_List] := Catch[Module[{unknown, value, functions, keys, host, port},
  unknown = unknownOptionFailure[WSJavaListen, opts];
  If[FailureQ[unknown], Throw[unknown, $settingsTag]];
  value = OptionValue[WSJavaListen, opts, #] &;
  {host, port} = hostAndPort[address];
  functions = value[HandlerFunctions];
  If[!AssociationQ[functions] || !SubsetQ[$eventNames, Keys[functions]],
    Throw[optionFailure[HandlerFunctions, functions, "an association with keys among " <> ToString[$eventNames, InputForm]], $settingsTag]];
  If[handler =!= None && !wljsHandlerQ[handler], functions = Append[functions, "MessageReceived" -> handler]];
  keys = value[HandlerFunctionsKeys];
  If[keys =!= Automatic && !(MatchQ[keys, {___String}] && SubsetQ[$eventKeys, keys]),
    Throw[optionFailure[HandlerFunctionsKeys, keys, "Automatic or a list of keys among " <> ToString[$eventKeys, InputForm]], $settingsTag]];
  <|"Host" -> host, "Port" -> port, "HandlerFunctions" -> functions, "HandlerFunctionsKeys" -> keys,
    "AllowedOrigins" -> checked["AllowedOrigins", value["AllowedOrigins"], MatchQ[#, Automatic | All | {___String}] &, "Automatic, All or a list of origins such as \"http://127.0.0.1:20560\""],
    "Token" -> checkedToken[value["Token"]],
    "MaxMessageSize" -> checked["MaxMessageSize", value["MaxMessageSize"], # === Automatic || (IntegerQ[#] && 125 <= # <= 2^31 - 65) &,
      "Automatic (16 MiB, or a 64th of Java's heap if less, at least 1 MiB; 16 MiB inside WLJS) or a number of bytes from 125 to 2^31-65"],
    "MaxConnections" -> checked["MaxConnections", value["MaxConnections"], IntegerQ[#] && 1 <= # < 2^31 &, "a positive integer"],
    "Subprotocols" -> checked["Subprotocols", value["Subprotocols"], MatchQ[#, {___String}] &, "a list of Strings"],
    "TLS" -> checked["TLS", value["TLS"], tlsQ,
      "None, \"SelfSigned\", <|\"Certificate\" -> file, \"Key\" -> file|> (PEM) or <|\"KeyStore\" -> file, \"Password\" -> string|> (PKCS#12)"],
    "Compression" -> checked["Compression", value["Compression"], compressionQ,
      "True, False or an association with keys among \"Level\" (0 to 9), \"Threshold\" (bytes) and \"ContextTakeover\" (True or False)"],
    "PingInterval" -> checkedSeconds["PingInterval", value["PingInterval"], True],
    "IdleTimeout" -> checkedSeconds["IdleTimeout", value["IdleTimeout"], True],
    "Page" -> checked["Page", value["Page"], # === Automatic || # === None || (fileQ[#] && FileType[fileName[#]] === File) &,
      "Automatic (the demo page), None (no page) or an existing HTML file (a File or a path)"],
    "DrainInterval" -> checkedDrainInterval[value["DrainInterval"]]|>
], $settingsTag];

(* A token must not be guessed, and travels in ?token=: 16 or more printable ASCII characters. A
   refused String is described, not shown, so the secret stays out of messages and Failures. *)
checkedToken[token : (Automatic | None)] := token;
checkedToken[token_String /; StringLength[token] >= 16 && AllTrue[ToCharacterCode[token], 33 <= # <= 126 &]] := token;
checkedToken[token_] := Throw[optionFailure["Token", If[StringQ[token], "(a String of " <> ToString[StringLength[token]] <> " characters)", token],
  "Automatic, None or a String of at least 16 printable ASCII characters, without spaces (a short token is guessed)"], $settingsTag];

fileQ[f_] := StringQ[f] || MatchQ[f, File[_String]];
fileName[File[f_String]] := f;
fileName[f_String] := f;

tlsQ[None | "SelfSigned"] := True;
tlsQ[a_Association] := (Sort[Keys[a]] === {"Certificate", "Key"} && AllTrue[Values[a], fileQ]) ||
  (MemberQ[{{"KeyStore"}, {"KeyStore", "Password"}}, Sort[Keys[a]]] && fileQ[a["KeyStore"]] && StringQ[Lookup[a, "Password", ""]]);
tlsQ[_] := False;

(* The TLS source as the Java server's options; files are expanded here, where the kernel's
   directory is known, since Java resolves relative names against its own. *)
tlsPairs[None] := {};
tlsPairs["SelfSigned"] := {{"tls-self-signed", "true"}};
tlsPairs[a_Association] := If[KeyExistsQ[a, "KeyStore"],
  {{"tls-keystore", ExpandFileName[fileName[a["KeyStore"]]]}, {"tls-password", Lookup[a, "Password", ""]}},
  {{"tls-cert", ExpandFileName[fileName[a["Certificate"]]]}, {"tls-key", ExpandFileName[fileName[a["Key"]]]}}];

compressionQ[flag_?BooleanQ] := True;
compressionQ[a_Association] := SubsetQ[{"Level", "Threshold", "ContextTakeover"}, Keys[a]] &&
  MatchQ[Lookup[a, "Level", 6], _Integer?(0 <= # <= 9 &)] &&
  MatchQ[Lookup[a, "Threshold", 1024], _Integer?(0 <= # < 2^31 &)] &&
  BooleanQ[Lookup[a, "ContextTakeover", True]];
compressionQ[_] := False;

(* True and False switch permessage-deflate on and off; an association switches it on with settings. *)
compressionPairs[True] := {{"compression", "on"}};
compressionPairs[False] := {{"compression", "off"}};
compressionPairs[a_Association] := Join[{{"compression", "on"}},
  If[KeyExistsQ[a, "Level"], {{"compression-level", ToString[a["Level"]]}}, {}],
  If[KeyExistsQ[a, "Threshold"], {{"compression-threshold", ToString[a["Threshold"]]}}, {}],
  If[Lookup[a, "ContextTakeover", True] === False, {{"no-context-takeover", "true"}}, {}]];

checked[name_, value_, test_, why_] := If[TrueQ[test[value]], value, Throw[optionFailure[name, value, why], $settingsTag]];

(* Seconds as whole milliseconds; None only where the option allows it (noneAllowed). *)
checkedSeconds[name_, None, True] := None;
checkedSeconds[name_, value_, noneAllowed_] := With[{millis = secondsToMillis[value]},
  If[IntegerQ[millis] && millis > 0, millis,
    Throw[optionFailure[name, value, If[noneAllowed, "None or a positive number of seconds", "a positive number of seconds"]], $settingsTag]]];

(* None: no scheduled task; only WSJavaWait handles events (a script's choice, and the tests'). *)
checkedDrainInterval[value_] := checked["DrainInterval", value, # === None || (NumericQ[#] && 0.001 <= # <= 10) &,
  "None (only WSJavaWait handles events) or seconds from 0.001 to 10"];

(* The options as {name, value} string pairs in the Java server's vocabulary. Every number is an
   Integer by now, so ToString never writes 1.5*^4. *)
javaOptionPairs[s_Association] := Join[
  {{"host", s["Host"]}, {"port", ToString[s["Port"]]}, {"max-connections", ToString[s["MaxConnections"]]}},
  maxMessagePairs[s["MaxMessageSize"]],
  originPairs[s["AllowedOrigins"]],
  {"subprotocol", #} & /@ s["Subprotocols"],
  compressionPairs[s["Compression"]],
  tlsPairs[s["TLS"]],
  tokenPairs[s["Token"]],
  If[IntegerQ[s["PingInterval"]], {{"ping-interval", ToString[s["PingInterval"]]}}, {}],
  If[IntegerQ[s["IdleTimeout"]], {{"idle-timeout", ToString[s["IdleTimeout"]]}}, {}],
  (* A file's name is expanded here, where the kernel's directory is known. *)
  Switch[s["Page"], Automatic, {}, None, {{"no-demo-page", "true"}}, _, {{"page", ExpandFileName[fileName[s["Page"]]]}}]
];

(* Automatic leaves Java's default for WL servers (16 MiB, or a 64th of the kernel JVM's heap if
   less, at least 1 MiB), except inside WLJS, whose editor sends dropped files in messages of over
   5 MiB: there it is 16 MiB whatever the heap. *)
maxMessagePairs[size_Integer] := {{"max-message", ToString[size]}, {"max-frame", ToString[size]}};
maxMessagePairs[Automatic] := If[AssociationQ[wljsEnvironment[]], maxMessagePairs[16777216], {}];

(* Automatic: no token on loopback; beyond it Java makes one up (the server's "Token" property).
   Inside WLJS never: WLJS's page opens its sockets with no way to add a token, so a token would
   only lock WLJS out, and whoever reaches WLJS's http port can already evaluate through its UI
   (bound to 0.0.0.0 that is the LAN: the README says what the user trades). The Origin check
   still keeps every other web page out. None: no token, even on the network. *)
tokenPairs[token_String] := {{"token", token}};
tokenPairs[None] := {{"no-token", "true"}};
tokenPairs[Automatic] := If[AssociationQ[wljsEnvironment[]], {{"no-token", "true"}}, {}];

originPairs[All] := {{"allow-any-origin", "true"}};
originPairs[origins : {___String}] := {"allow-origin", #} & /@ origins;
originPairs[Automatic] := Module[{wljs = wljsOrigins[]},
  Join[originPairs[wljs["Origins"]], If[wljs["BehindProxy"], {{"allow-host-origin", "true"}}, {}]]];

(* WLJS's settings: System`$Env in the UI kernel (start.wls fills it from its command line),
   Internal`Kernel`$Env in an evaluation kernel (Kernel/LocalKernel.wl copies it there); None
   outside WLJS. Its "http" key is what marks it as WLJS's. *)
wljsEnvironment[] := SelectFirst[{System`$Env, Internal`Kernel`$Env}, AssociationQ[#] && KeyExistsQ[#, "http"] &, None];

(* Automatic: the server's own origins (Java adds them), plus, inside WLJS, the origins of WLJS's
   UI page: http://H:P with WLJS's "http" port P and every name H a browser may have used for
   WLJS's "host". Bound to a wildcard (0.0.0.0, ::) that is every address of this machine and its
   name, since a browser on the LAN names the machine as it reached it. In WLJS's container the
   browser reaches the kernel through a reverse proxy whose public URL no setting names
   ("wsprefix"), so there an Origin naming the host the proxy forwarded is accepted too, for
   requests that carry the proxy's X-Forwarded-For (Java checks; a browser cannot send it). *)
wljsOrigins[] := Module[{env = wljsEnvironment[], host, http},
  If[env === None, Return[<|"Origins" -> {}, "BehindProxy" -> False|>]];
  host = ToString[Lookup[env, "host", "127.0.0.1"]];
  http = Lookup[env, "http", 20560];
  <|"Origins" -> If[IntegerQ[http], ("http://" <> # <> ":" <> ToString[http]) & /@ originHosts[host], {}],
    "BehindProxy" -> StringQ[Lookup[env, "wsprefix", False]] || StringQ[Lookup[env, "ws2prefix", False]]|>
];

$loopbackHosts = {"127.0.0.1", "localhost", "[::1]"};

originHosts[host_String] := Which[
  MemberQ[{"127.0.0.1", "localhost", "::1", "[::1]"}, host], $loopbackHosts,
  MemberQ[{"0.0.0.0", "::", "[::]"}, host], DeleteDuplicates[Join[$loopbackHosts, machineHosts[]]],
  True, {bracketed[host]}
];

(* The machine's addresses (IPv6 in brackets, as URLs write them; link-local ones with a zone
   cannot appear in an Origin) and its name, alone and with each of its domains. *)
machineHosts[] := Module[{addresses, name, domains},
  addresses = Select[Flatten[{$MachineAddresses}], StringQ[#] && !StringContainsQ[#, "%"] &];
  name = If[StringQ[$MachineName] && $MachineName =!= "", {$MachineName}, {}];
  domains = Select[Flatten[{$MachineDomains}], StringQ[#] && # =!= "" &];
  Join[bracketed /@ addresses, name, Flatten[Outer[#1 <> "." <> #2 &, name, domains]]]
];

bracketed[host_String] := If[StringContainsQ[host, ":"] && !StringStartsQ[host, "["], "[" <> host <> "]", host];

(* ---- the server object ---- *)

(* Registered here and still served by the JVM it was started on (javaLost clears "Link"). *)
liveServerQ[handle_] := KeyExistsQ[$servers, handle] && $servers[handle]["Link"] =!= None;

(* A Java call about one server (or client) of this kernel: on the JVM that serves it, and never
   starting one (see javaCallOn). *)
SetAttributes[serverCall, HoldRest];
(* A call that finds its server's JVM gone reports the loss (once, javaLost), also for a server no
   task drains ("DrainInterval" -> None), so a send does not just fail quietly, again and again. *)
serverCall[handle_, call_] := With[{result = javaCallOn[Lookup[Lookup[$servers, handle, <||>], "Link", None], call]},
  If[FailureQ[result] && First[result] === "WSJavaJavaGone", javaLost[handle, "UninstallJava or ReinstallJava"]];
  result];

knownServerQ[WSJavaServer[data_Association]] := liveServerQ[data["Handle"]];
knownServerQ[_] := False;

goneFailure[server_] := (
  Message[WSJava::gone, server];
  Failure["WSJavaServerGone", <|"MessageTemplate" :> WSJava::gone, "MessageParameters" -> {server}|>]
);

WSJavaServer[data_Association][property_String] := (rearmDrainTask[data["Handle"]]; serverProperty[data, property]);

serverProperty[data_, "Properties"] := $serverProperties;
serverProperty[data_, property : ("Handle" | "Host" | "Port" | "URL" | "Token")] := Lookup[data, property, None];
serverProperty[data_, "Running"] :=
  liveServerQ[data["Handle"]] && TrueQ[serverCall[data["Handle"], WSJavaLink`isRunning[data["Handle"]]]];
serverProperty[data_, property : ("HandlerFunctions" | "HandlerFunctionsKeys")] :=
  Lookup[Lookup[$servers, data["Handle"], <||>], property, Missing["NotAvailable"]];
serverProperty[data_, "HandlerFailures"] := handlerFailures[data["Handle"]];
serverProperty[data_, "Statistics"] := If[liveServerQ[data["Handle"]],
  With[{numbers = serverCall[data["Handle"], WSJavaLink`stats[data["Handle"]]]},
    If[FailureQ[numbers], numbers,
      Append[AssociationThread[$statNames, numbers], "HandlerFailures" -> handlerFailureCount[data["Handle"]]]]],
  Missing["NotAvailable"]];
(* The connections Java has open now, some of whose "ConnectionOpened" handlers may not have run yet. *)
serverProperty[data_, "Connections"] := If[liveServerQ[data["Handle"]],
  With[{ids = serverCall[data["Handle"], WSJavaLink`connections[data["Handle"]]]},
    If[FailureQ[ids], ids, WSJavaConnection[data["Handle"], #] & /@ ids]],
  {}];
serverProperty[data_, property_] := Missing["UnknownProperty", property];

WSJavaServer /: MakeBoxes[server : WSJavaServer[data_Association], form : (StandardForm | TraditionalForm)] :=
  Module[{running = KeyExistsQ[$servers, data["Handle"]]},
    BoxForm`ArrangeSummaryBox[WSJavaServer, server, None,
      {BoxForm`SummaryItem[{"URL: ", data["URL"]}],
       BoxForm`SummaryItem[{"Running: ", running}]},
      {BoxForm`SummaryItem[{"Host: ", data["Host"]}], BoxForm`SummaryItem[{"Port: ", data["Port"]}]},
      form]
  ];

(* DeleteObject stops the server: every client gets 1001, the close handlers run, then the port
   is free and the drain task gone. Gives Null, as DeleteObject does for built-in objects. *)
WSJavaServer /: DeleteObject[server_WSJavaServer] := If[knownServerQ[server], stopServer[server[[1, "Handle"]]], goneFailure[server]];

(* Called from one of the server's own handlers, a drain is under way: the 1001 closes are then
   handled when that drain's batch is done (drainOnce calls finishStop), not lost. *)
stopServer[handle_Integer] := Module[{stopped},
  removeDrainTask[handle];
  stopped = serverCall[handle, WSJavaLink`stopServer[handle]];
  If[TrueQ[$draining[handle]], $stopping[handle] = True, finishStop[handle]];
  If[FailureQ[stopped], stopped, Null]
];

finishStop[handle_Integer] := (
  KeyDropFrom[$stopping, handle];
  While[MatchQ[drainOnce[handle, 50], n_Integer /; n > 0]];   (* the handlers of the 1001 closes *)
  serverCall[handle, WSJavaLink`forgetServer[handle]];
  forgetServer[handle]
);

(* ---- broadcast ---- *)

WSJavaBroadcast[server_?knownServerQ, text_String] := With[{handle = server[[1, "Handle"]]},
  rearmDrainTask[handle];
  If[beyondBmpQ[text],
    serverCall[handle, WSJavaLink`broadcastUtf8Base64[handle, toJava[StringToByteArray[text, "UTF-8"]]]],
    serverCall[handle, WSJavaLink`broadcastText[handle, text]]]];
WSJavaBroadcast[server_?knownServerQ, bytes_ByteArray] := With[{handle = server[[1, "Handle"]]},
  rearmDrainTask[handle];
  serverCall[handle, WSJavaLink`broadcastBinaryBase64[handle, toJava[bytes]]]];
WSJavaBroadcast[server_WSJavaServer, _String | _ByteArray] := goneFailure[server];
WSJavaBroadcast[args___] := argumentFailure[WSJavaBroadcast, {args}, "a WSJavaServer and a String or ByteArray"];

End[];

EndPackage[];
