(* ::Package:: *)

(* The server object: WSJavaListen starts one, like SocketListen; DeleteObject stops it. Java does
   the sockets, the protocol and the masking, and queues events; Events.wl drains the queue on
   the kernel's own evaluation thread and runs the handlers there, so no Java thread ever calls
   into the kernel. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::gone = "`1` is not a running WSJava server or client of this kernel.";

(* handle -> <|"Object", "HandlerFunctions", "HandlerFunctionsKeys", "Handler", "Link", "Task"|> *)
If[!AssociationQ[$servers], $servers = <||>];

$statNames = {"Connections", "MessagesIn", "MessagesOut", "BytesIn", "BytesOut", "PendingEvents"};
$serverProperties = {"Handle", "Host", "Port", "URL", "Token", "Running", "Connections", "Statistics",
  "HandlerFunctions", "HandlerFunctionsKeys", "Properties"};

Options[WSJavaListen] = {
  HandlerFunctions -> <||>,
  HandlerFunctionsKeys -> Automatic,
  "AllowedOrigins" -> Automatic,
  "Token" -> Automatic,
  "MaxMessageSize" -> 16777216,
  "MaxConnections" -> 20000,
  "Subprotocols" -> {},
  "Compression" -> True,
  "TLS" -> None,
  "PingInterval" -> None,
  "IdleTimeout" -> None,
  "DrainInterval" -> 0.01
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

listen[address_, handler_, opts_List] := Module[{settings, javaOptions, handle, link, server, task},
  settings = listenSettings[address, handler, opts];
  If[FailureQ[settings], Return[settings]];
  javaOptions = javaOptionPairs[settings];
  handle = javaCall[WSJavaLink`startServer[javaOptions[[All, 1]], javaOptions[[All, 2]]]];
  If[FailureQ[handle], Return[handle]];
  link = JavaLink[];
  server = WSJavaServer[<|"Handle" -> handle, "Host" -> settings["Host"],
    "Port" -> javaCall[WSJavaLink`serverPort[handle]], "URL" -> javaCall[WSJavaLink`serverUrl[handle]],
    "Token" -> Replace[javaCall[WSJavaLink`serverToken[handle]], Null -> None]|>];
  (* The task starts first and the record is stored in one step: a tick that comes in between
     finds no record and does nothing. *)
  task = startDrainTask[handle, settings["DrainInterval"]];
  $servers[handle] = <|"Object" -> server, "HandlerFunctions" -> settings["HandlerFunctions"],
    "HandlerFunctionsKeys" -> settings["HandlerFunctionsKeys"], "Handler" -> handler, "Link" -> link, "Task" -> task|>;
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
    "Token" -> checked["Token", value["Token"], MatchQ[#, Automatic | None | _String?(StringLength[#] > 0 &)] &, "Automatic, None or a non-empty String"],
    "MaxMessageSize" -> checked["MaxMessageSize", value["MaxMessageSize"], IntegerQ[#] && 125 <= # <= 2^31 - 65 &, "a number of bytes from 125 to 2^31-65"],
    "MaxConnections" -> checked["MaxConnections", value["MaxConnections"], IntegerQ[#] && 1 <= # < 2^31 &, "a positive integer"],
    "Subprotocols" -> checked["Subprotocols", value["Subprotocols"], MatchQ[#, {___String}] &, "a list of Strings"],
    "TLS" -> checked["TLS", value["TLS"], tlsQ,
      "None, \"SelfSigned\", <|\"Certificate\" -> file, \"Key\" -> file|> (PEM) or <|\"KeyStore\" -> file, \"Password\" -> string|> (PKCS#12)"],
    "Compression" -> checked["Compression", value["Compression"], compressionQ,
      "True, False or an association with keys among \"Level\" (0 to 9), \"Threshold\" (bytes) and \"ContextTakeover\" (True or False)"],
    "PingInterval" -> checkedSeconds["PingInterval", value["PingInterval"], None],
    "IdleTimeout" -> checkedSeconds["IdleTimeout", value["IdleTimeout"], None],
    "DrainInterval" -> checked["DrainInterval", value["DrainInterval"], NumericQ[#] && 0.001 <= # <= 10 &, "seconds from 0.001 to 10"]|>
], $settingsTag];

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

checkedSeconds[name_, None, _] := None;
checkedSeconds[name_, value_, _] := With[{millis = secondsToMillis[value]},
  If[IntegerQ[millis] && millis > 0, millis, Throw[optionFailure[name, value, "None or a positive number of seconds"], $settingsTag]]];

(* The options as {name, value} string pairs in the Java server's vocabulary. Every number is an
   Integer by now, so ToString never writes 1.5*^4. *)
javaOptionPairs[s_Association] := Join[
  {{"host", s["Host"]}, {"port", ToString[s["Port"]]}, {"max-message", ToString[s["MaxMessageSize"]]},
   {"max-frame", ToString[s["MaxMessageSize"]]}, {"max-connections", ToString[s["MaxConnections"]]}},
  originPairs[s["AllowedOrigins"]],
  {"subprotocol", #} & /@ s["Subprotocols"],
  compressionPairs[s["Compression"]],
  tlsPairs[s["TLS"]],
  tokenPairs[s["Token"]],
  If[IntegerQ[s["PingInterval"]], {{"ping-interval", ToString[s["PingInterval"]]}}, {}],
  If[IntegerQ[s["IdleTimeout"]], {{"idle-timeout", ToString[s["IdleTimeout"]]}}, {}]
];

(* Automatic: no token on loopback; beyond it Java makes one up (the server's "Token" property),
   except in WLJS's container, whose frontend sends none and whose proxy already decides who gets
   in (anyone who reaches it has the notebook UI, a token would protect nothing). None: no token,
   even on the network, by the user's explicit choice. *)
tokenPairs[token_String] := {{"token", token}};
tokenPairs[None] := {{"no-token", "true"}};
tokenPairs[Automatic] := If[TrueQ[wljsOrigins[]["BehindProxy"]], {{"no-token", "true"}}, {}];

originPairs[All] := {{"allow-any-origin", "true"}};
originPairs[origins : {___String}] := {"allow-origin", #} & /@ origins;
originPairs[Automatic] := Module[{wljs = wljsOrigins[]},
  Join[originPairs[wljs["Origins"]], If[wljs["BehindProxy"], {{"allow-host-origin", "true"}}, {}]]];

(* Automatic: the server's own origins (Java adds them), plus, inside WLJS, the origins of WLJS's
   UI as WLJS itself configures them: host and http port from $Env (start.wls fills it from its
   command line; an evaluation kernel gets it as Internal`Kernel`$Env). In WLJS's container the
   browser reaches the kernel through a reverse proxy whose public URL no setting names ("wsprefix"),
   so there an Origin naming the Host the proxy forwarded is accepted too. *)
wljsOrigins[] := Module[{env, host, http, hosts},
  env = SelectFirst[{System`$Env, Internal`Kernel`$Env}, AssociationQ, None];
  If[env === None, Return[<|"Origins" -> {}, "BehindProxy" -> False|>]];
  host = ToString[Lookup[env, "host", "127.0.0.1"]];
  http = Lookup[env, "http", 20560];
  hosts = If[MemberQ[{"127.0.0.1", "localhost", "0.0.0.0", "::", "::1"}, host],
    {"127.0.0.1", "localhost"}, {host}];
  <|"Origins" -> If[IntegerQ[http], ("http://" <> # <> ":" <> ToString[http]) & /@ hosts, {}],
    "BehindProxy" -> StringQ[Lookup[env, "wsprefix", False]] || StringQ[Lookup[env, "ws2prefix", False]]|>
];

(* ---- the server object ---- *)

(* Registered here and still served by the JVM it was started on (javaLost clears "Link"). *)
liveServerQ[handle_] := KeyExistsQ[$servers, handle] && $servers[handle]["Link"] =!= None;

knownServerQ[WSJavaServer[data_Association]] := liveServerQ[data["Handle"]];
knownServerQ[_] := False;

goneFailure[server_] := (
  Message[WSJava::gone, server];
  Failure["WSJavaServerGone", <|"MessageTemplate" :> WSJava::gone, "MessageParameters" -> {server}|>]
);

WSJavaServer[data_Association][property_String] := serverProperty[data, property];

serverProperty[data_, "Properties"] := $serverProperties;
serverProperty[data_, property : ("Handle" | "Host" | "Port" | "URL" | "Token")] := Lookup[data, property, None];
serverProperty[data_, "Running"] :=
  liveServerQ[data["Handle"]] && TrueQ[javaCall[WSJavaLink`isRunning[data["Handle"]]]];
serverProperty[data_, property : ("HandlerFunctions" | "HandlerFunctionsKeys")] :=
  Lookup[Lookup[$servers, data["Handle"], <||>], property, Missing["NotAvailable"]];
serverProperty[data_, "Statistics"] := If[liveServerQ[data["Handle"]],
  With[{numbers = javaCall[WSJavaLink`stats[data["Handle"]]]},
    If[FailureQ[numbers], numbers, AssociationThread[$statNames, numbers]]],
  Missing["NotAvailable"]];
serverProperty[data_, "Connections"] := If[liveServerQ[data["Handle"]],
  With[{ids = javaCall[WSJavaLink`connections[data["Handle"]]]},
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

stopServer[handle_Integer] := Module[{stopped},
  removeDrainTask[handle];
  stopped = javaCall[WSJavaLink`stopServer[handle]];
  (* Run the handlers for what happened during the stop: the 1001 closes. *)
  While[MatchQ[drainOnce[handle, 50], n_Integer /; n > 0]];
  javaCall[WSJavaLink`forgetServer[handle]];
  forgetServer[handle];
  If[FailureQ[stopped], stopped, Null]
];

(* ---- broadcast ---- *)

WSJavaBroadcast[server_?knownServerQ, text_String] := javaCall[WSJavaLink`broadcastText[server[[1, "Handle"]], text]];
WSJavaBroadcast[server_?knownServerQ, bytes_ByteArray] :=
  javaCall[WSJavaLink`broadcastBinaryBase64[server[[1, "Handle"]], toJava[bytes]]];
WSJavaBroadcast[server_WSJavaServer, _String | _ByteArray] := goneFailure[server];
WSJavaBroadcast[args___] := argumentFailure[WSJavaBroadcast, {args}, "a WSJavaServer and a String or ByteArray"];

End[];

EndPackage[];
