(* ::Package:: *)

(* The server, driven from WL. Java does the sockets, the protocol and the masking, and queues
   events; WL drains the queue on the kernel's main thread and calls the handlers there, so no
   Java thread ever calls into the kernel. Scripts drain with WSJavaServerRun (a blocking loop that
   wakes as soon as an event arrives); interactive kernels get a scheduled task that drains every
   "DrainInterval" seconds (10 ms by default, so a handler starts up to about 10 ms after its
   message arrived). *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::handler = "The \"`1`\" handler failed for `2`.";
WSJava::notopen = "`1` is not open.";

(* handle -> <|"Handlers" -> <|...|>, "Task" -> TaskObject | None|> *)
If[!AssociationQ[$servers], $servers = <||>];

$handlerNames = {"Open", "Message", "Close", "Error"};
$statNames = {"Connections", "MessagesIn", "MessagesOut", "BytesIn", "BytesOut", "PendingEvents"};
$connectionFields = {"Path", "Query", "RemoteAddress", "Origin", "Subprotocol"};

(* ---- start ---- *)

Options[WSJavaServerStart] = {
  "Host" -> "127.0.0.1",
  "Port" -> 20580,
  "AllowedOrigins" -> {},
  "AllowAnyOrigin" -> False,
  "Token" -> None,
  "MaxMessageSize" -> 16777216,
  "Subprotocols" -> {},
  "AutoDrain" -> Automatic,
  "DrainInterval" -> 0.01,
  "ServerOptions" -> {}
};

handlersQ[handlers_Association] := SubsetQ[$handlerNames, Keys[handlers]];
handlersQ[_] := False;

WSJavaServerStart[handlers_?handlersQ, opts : OptionsPattern[]] := Module[{pairs, handle, auto, interval},
  pairs = serverOptionPairs[{opts}];
  If[FailureQ[pairs], Return[pairs]];
  auto = Replace[OptionValue["AutoDrain"], Automatic :> interactiveQ[]];
  interval = OptionValue["DrainInterval"];
  If[!BooleanQ[auto] || !(NumericQ[interval] && interval > 0),
    Return[argumentFailure[WSJavaServerStart, {handlers, opts}, "\"AutoDrain\" True, False or Automatic and \"DrainInterval\" > 0"]]
  ];
  handle = javaCall[WSJavaLink`startServer[pairs[[All, 1]], pairs[[All, 2]]]];
  If[FailureQ[handle], Return[handle]];
  $servers[handle] = <|"Handlers" -> handlers, "Task" -> If[auto, startDrainTask[handle, interval], None]|>;
  WSJavaServerObject[<|
    "Handle" -> handle,
    "Host" -> OptionValue["Host"],
    "Port" -> javaCall[WSJavaLink`serverPort[handle]],
    "URL" -> javaCall[WSJavaLink`serverUrl[handle]]
  |>]
];
WSJavaServerStart[args___] := argumentFailure[WSJavaServerStart, {args},
  "an association with some of the keys \"Open\", \"Message\", \"Close\", \"Error\", then options"];

(* The options as {name, value} string pairs in the CLI's vocabulary (./wsjava serve --help). *)
serverOptionPairs[opts_List] := Module[{value = OptionValue[WSJavaServerStart, opts, #] &, extra},
  extra = value["ServerOptions"];
  If[!StringQ[value["Host"]] || !(IntegerQ[value["Port"]] && 0 <= value["Port"] <= 65535) ||
     !MatchQ[value["AllowedOrigins"], {___String}] || !BooleanQ[value["AllowAnyOrigin"]] ||
     !MatchQ[value["Token"], None | _String] || !(IntegerQ[value["MaxMessageSize"]] && value["MaxMessageSize"] > 0) ||
     !MatchQ[value["Subprotocols"], {___String}] || !MatchQ[extra, {(_String -> _) ...}],
    Return[argumentFailure[WSJavaServerStart, opts,
      "\"Host\" a String, \"Port\" 0-65535, \"AllowedOrigins\" and \"Subprotocols\" lists of Strings, \"AllowAnyOrigin\" True or False, \"Token\" None or a String, \"MaxMessageSize\" a positive integer, \"ServerOptions\" rules name -> value"]]
  ];
  Join[
    {{"host", value["Host"]}, {"port", ToString[value["Port"]]},
     {"max-message", ToString[value["MaxMessageSize"]]}, {"max-frame", ToString[value["MaxMessageSize"]]}},
    {"allow-origin", #} & /@ value["AllowedOrigins"],
    {"subprotocol", #} & /@ value["Subprotocols"],
    If[value["AllowAnyOrigin"], {{"allow-any-origin", "true"}}, {}],
    If[StringQ[value["Token"]], {{"token", value["Token"]}}, {}],
    {First[#], ToString[Last[#]]} & /@ extra
  ]
];

(* wolframscript -file sets $ScriptCommandLine; notebooks and LinkLaunch'd kernels (WLJS) do not. *)
interactiveQ[] := Length[$ScriptCommandLine] == 0;

startDrainTask[handle_Integer, interval_] := SessionSubmit[ScheduledTask[drain[handle, 0], interval]];

(* ---- events ---- *)

(* One J/Link call fetches up to 1000 events, four Strings each; the handlers then run here. *)
drain[handle_Integer, timeoutMillis_Integer] := Module[{flat, events},
  flat = javaCall[WSJavaLink`poll[handle, timeoutMillis, 1000]];
  If[FailureQ[flat], Return[flat]];
  events = Partition[flat, 4];
  Scan[dispatchEvent[handle, #] &, events];
  Length[events]
];

dispatchEvent[handle_, {type_String, id_String, payload_String, code_String}] := Module[{connection, handlers},
  connection = WSJavaConnection[handle, FromDigits[id]];
  handlers = Lookup[Lookup[$servers, handle, <||>], "Handlers", <||>];
  Switch[type,
    "Open", callHandler[handlers, "Open", connection, {connection}],
    "Text", callHandler[handlers, "Message", connection, {connection, payload}],
    "Binary", callHandler[handlers, "Message", connection, {connection, fromJava[payload]}],
    "Close", callHandler[handlers, "Close", connection, {connection, FromDigits[code], payload}],
    "Error", callHandler[handlers, "Error", connection, {connection, payload}],
    _, Null
  ]
];

(* A failing handler issues a message; the loop and the other connections carry on. *)
callHandler[handlers_Association, name_String, connection_, args_List] :=
  If[KeyExistsQ[handlers, name],
    Check[Apply[handlers[name], args], Message[WSJava::handler, name, connection]; $Failed]
  ];

WSJavaDrain[WSJavaServerObject[data_Association], wait : (_?NumericQ) : 0] /; wait >= 0 :=
  drain[data["Handle"], Round[1000 wait]];
WSJavaDrain[args___] := argumentFailure[WSJavaDrain, {args}, "a WSJavaServerObject and optionally a wait in seconds"];

WSJavaServerRun[WSJavaServerObject[data_Association], limit : (Infinity | _?NumericQ) : Infinity] /; limit >= 0 :=
  Module[{handle = data["Handle"], deadline = AbsoluteTime[] + limit, count = 0, failure = None, n},
    While[failure === None && TrueQ[javaCall[WSJavaLink`isRunning[handle]]] && AbsoluteTime[] < deadline,
      (* Blocks in Java for at most 100 ms, and returns as soon as an event arrives. *)
      n = drain[handle, Round[1000 Min[0.1, Max[0, deadline - AbsoluteTime[]]]]];
      If[FailureQ[n], failure = n, count += n]
    ];
    If[failure === None, count, failure]
  ];
WSJavaServerRun[args___] := argumentFailure[WSJavaServerRun, {args}, "a WSJavaServerObject and optionally a time limit in seconds"];

(* ---- the server object ---- *)

WSJavaServerObject[data_Association][property_String] := serverProperty[data, property];

serverProperty[data_, property : ("Handle" | "Host" | "Port" | "URL")] := data[property];
serverProperty[data_, "Running"] := TrueQ[javaCall[WSJavaLink`isRunning[data["Handle"]]]];
serverProperty[data_, "Stats"] := serverStats[data["Handle"]];
serverProperty[data_, "Connections"] := WSJavaConnections[WSJavaServerObject[data]];
serverProperty[data_, property_] := Missing["UnknownProperty", property];

serverStats[handle_Integer] := Module[{numbers = javaCall[WSJavaLink`stats[handle]]},
  If[FailureQ[numbers], numbers, AssociationThread[$statNames, numbers]]
];

WSJavaServerObject /: MakeBoxes[server : WSJavaServerObject[data_Association], form : (StandardForm | TraditionalForm)] :=
  Module[{stats = Quiet[If[TrueQ[javaCall[WSJavaLink`isRunning[data["Handle"]]]], serverStats[data["Handle"]], None]]},
    BoxForm`ArrangeSummaryBox[WSJavaServerObject, server, None,
      {BoxForm`SummaryItem[{"URL: ", data["URL"]}],
       BoxForm`SummaryItem[{"Connections: ", statOrStopped[stats, "Connections"]}]},
      {BoxForm`SummaryItem[{"Port: ", data["Port"]}],
       BoxForm`SummaryItem[{"Messages in: ", statOrStopped[stats, "MessagesIn"]}],
       BoxForm`SummaryItem[{"Messages out: ", statOrStopped[stats, "MessagesOut"]}]},
      form]
  ];

statOrStopped[stats_Association, key_] := stats[key];
statOrStopped[_, _] := "stopped";

(* ---- connections ---- *)

WSJavaConnection[handle_Integer, id_Integer][property_String] := Module[{info},
  info = javaCall[WSJavaLink`connectionInfo[handle, id]];
  Which[
    FailureQ[info], info,
    info === {}, Missing["NotOpen"],
    True, Lookup[AssociationThread[$connectionFields, info], property, Missing["UnknownProperty", property]]
  ]
];

WSJavaConnections[WSJavaServerObject[data_Association]] := Module[{ids = javaCall[WSJavaLink`connections[data["Handle"]]]},
  If[FailureQ[ids], ids, WSJavaConnection[data["Handle"], #] & /@ ids]
];
WSJavaConnections[args___] := argumentFailure[WSJavaConnections, {args}, "a WSJavaServerObject"];

WSJavaSend[connection : WSJavaConnection[handle_Integer, id_Integer], text_String] :=
  sendOutcome[connection, javaCall[WSJavaLink`sendText[handle, id, text]]];
WSJavaSend[connection : WSJavaConnection[handle_Integer, id_Integer], data_ByteArray] :=
  sendOutcome[connection, javaCall[WSJavaLink`sendBinaryBase64[handle, id, toJava[data]]]];
WSJavaSend[args___] := argumentFailure[WSJavaSend, {args}, "a WSJavaConnection and a String or ByteArray"];

sendOutcome[_, True] := True;
sendOutcome[_, failure_Failure] := failure;
sendOutcome[connection_, _] := (
  Message[WSJava::notopen, connection];
  Failure["WSJavaNotOpen", <|"MessageTemplate" :> WSJava::notopen, "MessageParameters" -> {connection}|>]
);

WSJavaBroadcast[WSJavaServerObject[data_Association], text_String] :=
  javaCall[WSJavaLink`broadcastText[data["Handle"], text]];
WSJavaBroadcast[WSJavaServerObject[data_Association], bytes_ByteArray] :=
  javaCall[WSJavaLink`broadcastBinaryBase64[data["Handle"], toJava[bytes]]];
WSJavaBroadcast[args___] := argumentFailure[WSJavaBroadcast, {args}, "a WSJavaServerObject and a String or ByteArray"];

closeCodeQ[code_Integer] := 1000 <= code <= 1003 || 1007 <= code <= 1014 || 3000 <= code <= 4999;
closeCodeQ[_] := False;

WSJavaClose[connection_WSJavaConnection] := WSJavaClose[connection, 1000, ""];
WSJavaClose[WSJavaConnection[handle_Integer, id_Integer], code_?closeCodeQ, reason_String : ""] :=
  javaCall[WSJavaLink`closeConnection[handle, id, code, reason]];
WSJavaClose[args___] := argumentFailure[WSJavaClose, {args},
  "a WSJavaConnection, optionally a close code (1000-1003, 1007-1014, 3000-4999) and a reason"];

(* ---- stop ---- *)

WSJavaServerStop[WSJavaServerObject[data_Association]] := Module[{handle = data["Handle"], task, stopped},
  task = Lookup[Lookup[$servers, handle, <||>], "Task", None];
  If[MatchQ[task, _TaskObject], TaskRemove[task]];
  stopped = javaCall[WSJavaLink`stopServer[handle]];
  (* Run the handlers for what happened during the stop: the 1001 closes. *)
  While[TrueQ[drain[handle, 50] > 0]];
  javaCall[WSJavaLink`forgetServer[handle]];
  KeyDropFrom[$servers, handle];
  stopped
];
WSJavaServerStop[args___] := argumentFailure[WSJavaServerStop, {args}, "a WSJavaServerObject"];

End[];

EndPackage[];
