(* ::Package:: *)

(* Events from Java to the handlers. One J/Link call takes a batch of events; each becomes one
   association, as SocketListen and URLSubmit hand their handlers, and every handler call is
   contained, so a handler that fails, throws or aborts costs only its own event.

   Who drains: a scheduled task per server, in every kind of kernel, because a script cannot be
   told apart from a WLJS backend (wolframscript -f start.wls, whose loop is
   While[True, MicrotasksRun[]; Pause[0.01]]) or a LinkLaunched evaluation kernel. A task with the
   default method runs between the steps of whatever the kernel is evaluating, so handlers may run
   in the middle of a user's computation; javaCall's PreemptProtect keeps that from splitting one
   J/Link call, and the $draining flag keeps two drains from interleaving (events stay in order).
   WSJavaWait also drains, from the main evaluation, for scripts that have nothing else to do. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::handler = "The \"`1`\" handler for `2` `3`; the other events are handled as usual.";
WSJava::javalost = "The Java runtime that served `1` stopped (UninstallJava or ReinstallJava); its connections are reported closed with code 1006.";

$eventNames = {"ConnectionOpened", "MessageReceived", "ConnectionClosed", "ErrorOccurred"};
$eventKeys = {"Event", "Server", "Connection", "Timestamp", "Data", "DataType", "DataByteArray",
  "CloseCode", "CloseReason", "Message", "Path", "Query", "Origin", "RemoteAddress", "Subprotocol"};
$defaultKeys = <|
  "ConnectionOpened" -> {"Event", "Server", "Connection", "Timestamp"},
  "MessageReceived" -> {"Event", "Server", "Connection", "Timestamp", "Data", "DataType"},
  "ConnectionClosed" -> {"Event", "Server", "Connection", "Timestamp", "CloseCode", "CloseReason"},
  "ErrorOccurred" -> {"Event", "Server", "Connection", "Timestamp", "Message"}
|>;

(* Java's flat layout (wsjava.link.EventQueue.FIELDS): type, id, millis, code, data, then path,
   query, remote address, Origin and subprotocol for "Open". *)
$eventFields = 10;
$batchSize = 1000;

(* conn -> what was known at open, kept until its "ConnectionClosed" handler has returned *)
If[!AssociationQ[$connectionInfo], $connectionInfo = <||>];
If[!AssociationQ[$draining], $draining = <||>];

(* ---- the drain task ---- *)

startDrainTask[handle_Integer, interval_] := SessionSubmit[ScheduledTask[drainTick[handle], interval]];

removeDrainTask[handle_Integer] := With[{task = Lookup[Lookup[$servers, handle, <||>], "Task", None]},
  If[MatchQ[task, _TaskObject], Quiet[TaskRemove[task]]]];

(* Never starts Java: after UninstallJava or ReinstallJava the server died with its JVM, and the
   task removes itself instead of failing, or relaunching Java, every tick. *)
drainTick[handle_Integer] := Which[
  !KeyExistsQ[$servers, handle], Null,
  JavaLink[] =!= $servers[handle]["Link"], javaLost[handle],
  True, If[FailureQ[drainOnce[handle, 0]], javaLost[handle]]
];

javaLost[handle_Integer] := Module[{server = $servers[handle]["Object"]},
  removeDrainTask[handle];
  Message[WSJava::javalost, server];
  (* No longer live: a close handler that sends or asks Java now gets a Failure instead of
     starting a new JVM through InstallJava. *)
  $servers[handle] = Append[$servers[handle], "Link" -> None];
  Scan[dispatchEvent[handle, {"Close", ToString[Last[#]], "0", "1006", "the Java runtime stopped", "", "", "", "", ""}] &,
    Select[Keys[$connectionInfo], First[#] === handle &]];
  forgetServer[handle]
];

forgetServer[handle_Integer] := (
  KeyDropFrom[$servers, handle];
  KeyDropFrom[$draining, handle];
  KeyDropFrom[$connectionInfo, Select[Keys[$connectionInfo], First[#] === handle &]];
);

(* Takes one batch (waiting up to waitMillis for its first event) and handles it. Gives the
   number of events, Missing["Busy"] while another drain of this server is under way, or a Failure. *)
drainOnce[handle_Integer, waitMillis_Integer] := If[TrueQ[$draining[handle]], Missing["Busy"],
  WithCleanup[
    $draining[handle] = True,
    Module[{flat = javaCall[WSJavaLink`poll[handle, waitMillis, $batchSize]]},
      If[FailureQ[flat], flat,
        Scan[dispatchEvent[handle, #] &, Partition[flat, $eventFields]];
        Length[flat] / $eventFields]],
    If[KeyExistsQ[$draining, handle], $draining[handle] = False]
  ]
];

(* ---- one event ---- *)

dispatchEvent[handle_, {type_, id_, millis_, code_, data_, path_, query_, remote_, origin_, subprotocol_}] :=
  Module[{conn = WSJavaConnection[handle, FromDigits[id]], time = FromDigits[millis], bytes},
    Switch[type,
      "Open",
        $connectionInfo[conn] = <|"Path" -> path, "Query" -> query, "RemoteAddress" -> remote,
          "Origin" -> If[origin === "", None, origin], "Subprotocol" -> If[subprotocol === "", None, subprotocol]|>;
        wljsOpened[handle, conn];
        callHandler[handle, "ConnectionOpened", conn, time, <||>],
      "Text" | "Binary",
        bytes = If[type === "Text", None, fromJava[data]];
        wljsMessage[handle, conn, data, bytes];
        callHandler[handle, "MessageReceived", conn, time,
          <|"Data" -> If[type === "Text", data, bytes], "DataType" -> type,
            "DataByteArray" :> If[type === "Text", StringToByteArray[data, "UTF-8"], bytes]|>],
      "Close",
        wljsClosed[handle, conn];
        callHandler[handle, "ConnectionClosed", conn, time, <|"CloseCode" -> FromDigits[code], "CloseReason" -> data|>];
        KeyDropFrom[$connectionInfo, conn],
      "Error",
        callHandler[handle, "ErrorOccurred", conn, time, <|"Message" -> data|>]
    ]
  ];

callHandler[handle_, event_String, conn_, millis_Integer, extra_Association] := Module[{server, f, keys},
  server = Lookup[$servers, handle, <||>];
  f = Lookup[Lookup[server, "HandlerFunctions", <||>], event, None];
  If[f === None, Return[Null]];
  keys = Replace[server["HandlerFunctionsKeys"], Automatic :> $defaultKeys[event]];
  With[{argument = eventAssociation[server["Object"], event, conn, millis, extra, keys]},
    runContained[f[argument], event, conn]]
];

(* Only the keys asked for, so "DataByteArray" and "Timestamp" cost nothing unless wanted. *)
eventAssociation[server_, event_, conn_, millis_, extra_, keys_List] := Module[{all},
  all = Join[<|"Event" -> event, "Server" -> server, "Connection" -> conn|>, Lookup[$connectionInfo, conn, <||>], extra];
  AssociationMap[Function[key, Switch[key,
      "Timestamp", FromUnixTime[millis / 1000],
      _, Lookup[all, key, Missing["NotApplicable"]]]],
    Select[keys, # === "Timestamp" || KeyExistsQ[all, #] &]]
];

(* Check traps messages only: a Throw or an Abort would go through it and end the whole batch,
   losing the events already taken from Java. Each handler call is therefore also wrapped in an
   untagged and a tagged Catch and a CheckAbort. Gives the handler's value, or $Failed. *)
SetAttributes[runContained, HoldFirst];
runContained[call_, event_String, conn_] := Module[{outcome},
  outcome = CheckAbort[
    Catch[Catch[handlerReturned[Check[call, handlerMessaged]], _, handlerThrew[#2] &]],
    handlerAborted];
  Switch[outcome,
    handlerReturned[handlerMessaged], handlerProblem[event, conn, "issued messages"],
    _handlerReturned, First[outcome],
    _handlerThrew, handlerProblem[event, conn, "threw with tag " <> ToString[First[outcome], InputForm]],
    handlerAborted, handlerProblem[event, conn, "was aborted"],
    _, handlerProblem[event, conn, "threw without a tag"]
  ]
];

handlerProblem[event_, conn_, what_String] := (Message[WSJava::handler, event, conn, what]; $Failed);

(* ---- for scripts ---- *)

(* Handles events until the server stops or limit seconds have passed; gives how many. Blocks in
   Java for at most 20 ms at a time, so a message is handled as soon as it arrives. *)
WSJavaWait[server : (_?knownServerQ | _?knownClientQ), limit : (Infinity | _?NumericQ) : Infinity] /; limit >= 0 :=
  Module[{handle = server[[1, "Handle"]], deadline = AbsoluteTime[] + limit, count = 0, failure = None, n},
    While[failure === None && KeyExistsQ[$servers, handle] && AbsoluteTime[] < deadline &&
        TrueQ[javaCall[WSJavaLink`isRunning[handle]]],
      n = drainOnce[handle, Round[1000 Min[0.02, Max[0, deadline - AbsoluteTime[]]]]];
      Which[
        IntegerQ[n], count += n,
        MissingQ[n], Pause[0.005],   (* the task is draining right now *)
        True, failure = n
      ]
    ];
    If[failure === None, count, failure]
  ];
WSJavaWait[server : (_WSJavaServer | _WSJavaClient), ___] /; !knownServerQ[server] && !knownClientQ[server] := goneFailure[server];
WSJavaWait[args___] := argumentFailure[WSJavaWait, {args}, "a WSJavaServer or WSJavaClient and optionally a time limit in seconds"];

End[];

EndPackage[];
