(* ::Package:: *)

(* A WebSocket client, WSJavaConnect[url]: Java opens the connection (ws:// or wss://, the same
   codec as the server) and queues its events; WL drains them with the server's machinery. The
   client is registered in $servers under its own handle, so its one connection,
   WSJavaConnection[handle, id], is sent to, closed and described exactly like a server's. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

$clientProperties = {"Handle", "URL", "Connection", "Open", "Subprotocol", "Extensions", "Headers", "HandlerFailures", "Properties"};

(* Each option's comment is its entry in docs/wl-reference.md (WlReference reads it). *)
Options[WSJavaConnect] = {
  HandlerFunctions -> <||> (* as for WSJavaListen, the "Server" key holding the WSJavaClient; with "Reconnect", also "Reconnecting" ("Attempt", "Delay"), "ConnectionReopened" and "ReconnectGaveUp" ("Reason") *),
  HandlerFunctionsKeys -> Automatic (* as for WSJavaListen *),
  "Subprotocols" -> {} (* the subprotocols offered, most preferred first *),
  "Headers" -> <||> (* more request headers, as an association of Strings *),
  "Compression" -> True (* True: offer permessage-deflate *),
  "TLS" -> Automatic (* Automatic (the system's trusted certificates), <|"Certificate" -> file|> (trust the certificates in a PEM file) or <|"Fingerprint" -> hex|> (trust exactly the certificate with that SHA-256) *),
  "ConnectTimeout" -> 10 (* seconds *),
  "MaxMessageSize" -> 16777216 (* bytes *),
  "Reconnect" -> False (* False, True, or <|"InitialDelay" -> 0.5, "MaxDelay" -> 30, "Attempts" -> Infinity, "ReconnectCodes" -> Automatic, "OpenMessages" -> {...}|>: after an abnormal close it reconnects with exponential backoff and jitter, and sends "OpenMessages" on every open; a 1000 close, Close[client] or DeleteObject ends it *),
  "PingInterval" -> None (* seconds between pings, or None *),
  "PongTimeout" -> 10 (* seconds: a ping unanswered that long drops the connection *),
  "DrainInterval" -> 0.01 (* seconds between the scheduled task's drains, or None *)
};

(* What "Reconnect" -> <|...|> may say, with what True means. *)
$reconnectDefaults = <|"InitialDelay" -> 0.5, "MaxDelay" -> 30, "Attempts" -> Infinity,
  "ReconnectCodes" -> Automatic, "OpenMessages" -> {}|>;

webSocketUrlQ[url_String] := StringMatchQ[url, ("ws://" | "wss://") ~~ __, IgnoreCase -> True];
webSocketUrlQ[_] := False;

WSJavaConnect[url_?webSocketUrlQ, opts : OptionsPattern[]] := connect[url, None, {opts}];
WSJavaConnect[url_?webSocketUrlQ, handler : Except[_?optionRulesQ], opts : OptionsPattern[]] := connect[url, handler, {opts}];
WSJavaConnect[args___] := argumentFailure[WSJavaConnect, {args},
  "a ws:// or wss:// URL, optionally a function for each message received, then options"];

connect[url_, handler_, opts_List] := Module[{settings, pairs, handle, id, link, client},
  settings = connectSettings[handler, opts];
  If[FailureQ[settings], Return[settings]];
  pairs = clientOptionPairs[settings];
  handle = javaCall[WSJavaLink`connect[url, pairs[[All, 1]], pairs[[All, 2]]]];
  If[FailureQ[handle], Return[handle]];
  id = javaCall[WSJavaLink`clientConnection[handle]];
  If[FailureQ[id], javaCall[WSJavaLink`forgetServer[handle]]; Return[id]];
  link = JavaLink[];
  client = WSJavaClient[<|"Handle" -> handle, "URL" -> url, "Connection" -> WSJavaConnection[handle, id]|>];
  (* The "ConnectionOpened" event is already queued; the first drain handles it. *)
  register[handle, client, settings, None, link];
  client
];

headersQ[h_] := AssociationQ[h] && AllTrue[Keys[h], StringQ] && AllTrue[Values[h], StringQ];

clientTlsQ[Automatic] := True;
clientTlsQ[a_Association] := (Keys[a] === {"Certificate"} && fileQ[a["Certificate"]]) ||
  (Keys[a] === {"Fingerprint"} && StringQ[a["Fingerprint"]] && StringMatchQ[StringDelete[a["Fingerprint"], ":"], Repeated[HexadecimalCharacter, {64}]]);
clientTlsQ[_] := False;

connectSettings[handler_, opts_List] := Catch[Module[{unknown, value, functions, keys},
  unknown = unknownOptionFailure[WSJavaConnect, opts];
  If[FailureQ[unknown], Throw[unknown, $settingsTag]];
  value = OptionValue[WSJavaConnect, opts, #] &;
  functions = value[HandlerFunctions];
  If[!AssociationQ[functions] || !SubsetQ[$clientEventNames, Keys[functions]],
    Throw[optionFailure[HandlerFunctions, functions, "an association with keys among " <> ToString[$clientEventNames, InputForm]], $settingsTag]];
  If[handler =!= None, functions = Append[functions, "MessageReceived" -> handler]];
  keys = value[HandlerFunctionsKeys];
  If[keys =!= Automatic && !(MatchQ[keys, {___String}] && SubsetQ[$eventKeys, keys]),
    Throw[optionFailure[HandlerFunctionsKeys, keys, "Automatic or a list of keys among " <> ToString[$eventKeys, InputForm]], $settingsTag]];
  <|"HandlerFunctions" -> functions, "HandlerFunctionsKeys" -> keys,
    "Subprotocols" -> checked["Subprotocols", value["Subprotocols"], MatchQ[#, {___String}] &, "a list of Strings"],
    "Headers" -> checked["Headers", value["Headers"], headersQ, "an association of header names to String values"],
    "Compression" -> checked["Compression", value["Compression"], BooleanQ, "True or False"],
    "TLS" -> checked["TLS", value["TLS"], clientTlsQ,
      "Automatic (the system's trusted certificates), <|\"Certificate\" -> file|> (a PEM file to trust) or <|\"Fingerprint\" -> SHA-256 hex|>"],
    (* None would mean waiting forever in the kernel's own evaluation: refused. *)
    "ConnectTimeout" -> checkedSeconds["ConnectTimeout", value["ConnectTimeout"], False],
    "MaxMessageSize" -> checked["MaxMessageSize", value["MaxMessageSize"], IntegerQ[#] && 125 <= # <= 2^31 - 65 &, "a number of bytes from 125 to 2^31-65"],
    "Reconnect" -> reconnectSettings[value["Reconnect"]],
    "PingInterval" -> checkedSeconds["PingInterval", value["PingInterval"], True],
    "PongTimeout" -> checkedSeconds["PongTimeout", value["PongTimeout"], False],
    "DrainInterval" -> checkedDrainInterval[value["DrainInterval"]]|>
], $settingsTag];

(* False, True (the defaults) or an association of some of them; times become milliseconds. *)
reconnectSettings[False] := None;
reconnectSettings[True] := reconnectSettings[<||>];
reconnectSettings[given_Association] := Module[{s},
  If[!SubsetQ[Keys[$reconnectDefaults], Keys[given]],
    Throw[optionFailure["Reconnect", given, "True, False or an association with keys among " <> ToString[Keys[$reconnectDefaults], InputForm]], $settingsTag]];
  s = Join[$reconnectDefaults, given];
  (* The default longest delay grows to a longer first delay; given both, the longest must not be shorter. *)
  If[!KeyExistsQ[given, "MaxDelay"] && NumericQ[s["InitialDelay"]], s["MaxDelay"] = Max[s["MaxDelay"], s["InitialDelay"]]];
  If[NumericQ[s["InitialDelay"]] && NumericQ[s["MaxDelay"]] && s["MaxDelay"] < s["InitialDelay"],
    Throw[optionFailure["MaxDelay", s["MaxDelay"], "at least the \"InitialDelay\" (" <> ToString[s["InitialDelay"]] <> " s)"], $settingsTag]];
  <|"InitialDelay" -> checkedSeconds["InitialDelay", s["InitialDelay"], False],
    "MaxDelay" -> checkedSeconds["MaxDelay", s["MaxDelay"], False],
    "Attempts" -> checked["Attempts", s["Attempts"], # === Infinity || (IntegerQ[#] && 1 <= # < 2^31) &, "Infinity or a positive integer"],
    "ReconnectCodes" -> checked["ReconnectCodes", s["ReconnectCodes"], # === Automatic || MatchQ[#, {__Integer}] &,
      "Automatic (every close code but 1000) or a list of close codes"],
    (* They cross J/Link as Strings, so none beyond the BMP (see beyondBmpQ). *)
    "OpenMessages" -> checked["OpenMessages", s["OpenMessages"], MatchQ[#, {___String}] && !AnyTrue[#, beyondBmpQ] &,
      "a list of Strings (none with characters beyond the BMP), sent on every open and reopen"]|>
];
reconnectSettings[other_] := Throw[optionFailure["Reconnect", other, "True, False or an association"], $settingsTag];

(* The options in the Java client's vocabulary (wsjava.link.LinkClient). *)
clientOptionPairs[s_Association] := Join[
  {"subprotocol", #} & /@ s["Subprotocols"],
  KeyValueMap[{"header", #1 <> ": " <> #2} &, s["Headers"]],
  {{"compression", If[s["Compression"], "on", "off"]}, {"connect-timeout", ToString[s["ConnectTimeout"]]},
   {"max-message", ToString[s["MaxMessageSize"]]}, {"pong-timeout", ToString[s["PongTimeout"]]}},
  If[IntegerQ[s["PingInterval"]], {{"ping-interval", ToString[s["PingInterval"]]}}, {}],
  reconnectPairs[s["Reconnect"]],
  Switch[s["TLS"],
    Automatic, {},
    KeyValuePattern["Certificate" -> _], {{"trust-cert", ExpandFileName[fileName[s["TLS"]["Certificate"]]]}},
    _, {{"pin", s["TLS"]["Fingerprint"]}}]
];

reconnectPairs[None] := {};
reconnectPairs[r_Association] := Join[
  {{"reconnect", "on"}, {"reconnect-initial-delay", ToString[r["InitialDelay"]]}, {"reconnect-max-delay", ToString[r["MaxDelay"]]},
   {"reconnect-attempts", ToString[Replace[r["Attempts"], Infinity -> 0]]}},
  If[ListQ[r["ReconnectCodes"]], {{"reconnect-codes", StringRiffle[ToString /@ r["ReconnectCodes"], ","]}}, {}],
  {"open-text", #} & /@ r["OpenMessages"]];

(* ---- the client object ---- *)

knownClientQ[WSJavaClient[data_Association]] := liveServerQ[data["Handle"]];
knownClientQ[_] := False;

WSJavaClient[data_Association][property_String] := clientProperty[data, property];

clientProperty[data_, "Properties"] := $clientProperties;
clientProperty[data_, property : ("Handle" | "URL" | "Connection")] := data[property];
clientProperty[data_, "Open"] := data["Connection"]["Open"];
clientProperty[data_, property : ("Subprotocol" | "Headers")] := data["Connection"][property];
clientProperty[data_, "HandlerFailures"] := handlerFailures[data["Handle"]];
clientProperty[data_, "Extensions"] := Lookup[Replace[data["Connection"]["Headers"], Except[_Association] -> <||>],
  "sec-websocket-extensions", None];
clientProperty[data_, property_] := Missing["UnknownProperty", property];

(* Sending and closing a client is sending to and closing its connection. *)
WSJavaSend[client_WSJavaClient, message : (_String | _ByteArray)] := WSJavaSend[client["Connection"], message];
(* Closing a client that is between connections (reconnecting) has no connection to close: it ends
   the client instead, so it stops reconnecting and WSJavaWait[client] returns. *)
WSJavaClose[client_WSJavaClient, rest___] /; knownClientQ[client] && !TrueQ[client["Open"]] := endClient[client];
WSJavaClose[client_WSJavaClient, rest___] := WSJavaClose[client["Connection"], rest];
WSJavaClient /: Close[client_WSJavaClient] := (
  If[knownClientQ[client] && !TrueQ[client["Open"]], endClient[client], Quiet[WSJavaClose[client["Connection"]]]];
  client);

endClient[client_WSJavaClient] := With[{handle = client[[1, "Handle"]]},
  If[FailureQ[serverCall[handle, WSJavaLink`stopServer[handle]]], notOpenFailure[client["Connection"]],
    Success["WSJavaClosing", <|"MessageTemplate" -> "The client has ended.", "Connection" -> client["Connection"]|>]]];

(* DeleteObject closes the connection (1000), runs the close handler, and forgets the client. *)
WSJavaClient /: DeleteObject[client_WSJavaClient] := If[knownClientQ[client], stopServer[client[[1, "Handle"]]], goneFailure[client]];

WSJavaClient /: MakeBoxes[client : WSJavaClient[data_Association], form : (StandardForm | TraditionalForm)] :=
  BoxForm`ArrangeSummaryBox[WSJavaClient, client, None,
    {BoxForm`SummaryItem[{"URL: ", data["URL"]}], BoxForm`SummaryItem[{"Registered: ", KeyExistsQ[$servers, data["Handle"]]}]},
    {BoxForm`SummaryItem[{"Connection: ", data["Connection"]}]},
    form];

End[];

EndPackage[];
