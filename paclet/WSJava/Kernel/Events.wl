(* ::Package:: *)

(* Events from Java to the handlers. One J/Link call takes a batch of events; each becomes one
   association, as SocketListen and URLSubmit hand their handlers.

   Who drains: a scheduled task per server (every "DrainInterval" seconds), in every kind of
   kernel, because a script cannot be told apart from a WLJS backend (wolframscript -f start.wls,
   whose loop is While[True, MicrotasksRun[]; Pause[0.01]]) or a LinkLaunched evaluation kernel.
   A task with the default method runs between the steps of whatever the kernel is evaluating, so
   handlers may run in the middle of a user's computation; PreemptProtect in javaCallOn keeps that
   from splitting one J/Link call, and the $draining flag keeps two drains from interleaving
   (events stay in order). WSJavaWait also drains, from the main evaluation; with
   "DrainInterval" -> None it is the only drainer, which makes tests deterministic.

   What a handler's failure costs (runContained): a message it issues is the kernel's to show, as
   for a SocketListen handler, and its value still counts; a Throw costs only its own event; an
   Abort (a user's Ctrl-C or WLJS's Abort lands inside handlers too) is let through, and the rest
   of the batch waits in $pending for the next drain, so nothing a client sent is lost. Every
   failure is recorded in server["HandlerFailures"], which no Off, Quiet or General::stop can hide. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::handler = "The \"`1`\" handler for `2` `3`; that event was skipped. server[\"HandlerFailures\"] lists every failure.";
WSJava::javalost = "The Java runtime that served `1` stopped or failed (`2`); its connections are reported closed with code 1006.";
WSJava::rearmed = "The scheduled task that handles `1`'s events was removed (TaskRemove); WSJava started it again.";

$eventNames = {"ConnectionOpened", "MessageReceived", "ConnectionClosed", "ErrorOccurred"};
(* A client that reconnects ("Reconnect" in WSJavaConnect) also tells of its reconnecting. *)
$clientEventNames = Join[$eventNames, {"Reconnecting", "ConnectionReopened", "ReconnectGaveUp"}];
$eventKeys = {"Event", "Server", "Connection", "Timestamp", "Data", "DataType", "DataByteArray",
  "CloseCode", "CloseReason", "Message", "Path", "Query", "Origin", "RemoteAddress", "Subprotocol",
  "Attempt", "Delay", "Reason"};
$defaultKeys = <|
  "ConnectionOpened" -> {"Event", "Server", "Connection", "Timestamp"},
  "MessageReceived" -> {"Event", "Server", "Connection", "Timestamp", "Data", "DataType"},
  "ConnectionClosed" -> {"Event", "Server", "Connection", "Timestamp", "CloseCode", "CloseReason"},
  "ErrorOccurred" -> {"Event", "Server", "Connection", "Timestamp", "Message"},
  "Reconnecting" -> {"Event", "Server", "Connection", "Timestamp", "Attempt", "Delay"},
  "ConnectionReopened" -> {"Event", "Server", "Connection", "Timestamp"},
  "ReconnectGaveUp" -> {"Event", "Server", "Connection", "Timestamp", "Reason"}
|>;

(* Java's flat layout (wsjava.link.EventQueue.FIELDS): type, id, millis, code, data, then path,
   query, remote address, Origin and subprotocol for "Open". *)
$eventFields = 10;
$batchSize = 1000;
$failuresKept = 100;

(* conn -> what was known at open, kept until its "ConnectionClosed" handler has returned *)
If[!AssociationQ[$connectionInfo], $connectionInfo = <||>];
(* handle -> True while a drain runs; events taken from Java but not yet handled (after an Abort);
   True when the server was deleted by its own handler; its handler failures *)
If[!AssociationQ[$draining], $draining = <||>];
If[!AssociationQ[$pending], $pending = <||>];
If[!AssociationQ[$stopping], $stopping = <||>];
If[!AssociationQ[$failures], $failures = <||>];
(* handle -> AbsoluteTime[] of its drain task's last tick: a task that ticked lately is alive,
   so rearmDrainTask need not look through Tasks[] on every send *)
If[!AssociationQ[$lastTick], $lastTick = <||>];

(* ---- the drain task ---- *)

(* The record first, then its task: a tick that finds no record removes itself. *)
register[handle_Integer, object_, settings_Association, handler_, link_] := (
  $servers[handle] = <|"Object" -> object, "HandlerFunctions" -> settings["HandlerFunctions"],
    "HandlerFunctionsKeys" -> settings["HandlerFunctionsKeys"], "Handler" -> handler, "Link" -> link, "Task" -> None,
    "DrainInterval" -> settings["DrainInterval"]|>;
  $servers[handle] = Append[$servers[handle], "Task" -> startDrainTask[handle, settings["DrainInterval"]]];
);

startDrainTask[handle_Integer, None] := None;
startDrainTask[handle_Integer, interval_?NumericQ] := (
  $lastTick[handle] = AbsoluteTime[];
  SessionSubmit[ScheduledTask[drainTick[handle], interval]]);

(* The record forgets the task too, so nothing re-arms it (a close handler's send during a stop). *)
removeDrainTask[handle_Integer] := With[{task = Lookup[Lookup[$servers, handle, <||>], "Task", None]},
  If[MatchQ[task, _TaskObject],
    Quiet[TaskRemove[task]];
    $servers[handle] = Append[$servers[handle], "Task" -> None]]];

(* Compared by UUID, not as expressions: a TaskObject's expression need not stay the same. *)
taskAliveQ[task_TaskObject] := With[{id = Quiet[task["TaskUUID"]]}, StringQ[id] && MemberQ[Quiet[#["TaskUUID"] & /@ Tasks[]], id]];
taskAliveQ[_] := False;

(* TaskRemove /@ Tasks[] is a common idiom, and it removes our tasks too. Every public function
   that works on a server calls this, so the first call after such a sweep starts it again. Tasks[]
   is looked through only when the task has not ticked for ten of its intervals (at least a
   second): a send costs no scan of every task in the session. *)
rearmDrainTask[handle_Integer] := With[{record = Lookup[$servers, handle, <||>]},
  If[MatchQ[Lookup[record, "Task"], _TaskObject] && !TrueQ[$stopping[handle]] && record["Link"] =!= None &&
      AbsoluteTime[] - Lookup[$lastTick, handle, 0] > Max[1, 10 record["DrainInterval"]] && !taskAliveQ[record["Task"]],
    $servers[handle] = Append[record, "Task" -> startDrainTask[handle, record["DrainInterval"]]];
    Message[WSJava::rearmed, record["Object"]]]];

(* Never starts Java (serverCall never does): after UninstallJava or ReinstallJava the server
   died with its JVM, and the tick reports that and removes its task, instead of failing, or
   starting Java again, every tick. A tick whose server is gone removes itself. *)
drainTick[handle_Integer] := If[!KeyExistsQ[$servers, handle], Quiet[TaskRemove[$CurrentTask]],
  $lastTick[handle] = AbsoluteTime[];   (* the heartbeat rearmDrainTask reads *)
  If[JavaLink[] =!= $servers[handle]["Link"], javaLost[handle, "UninstallJava or ReinstallJava"], drainOnce[handle, 0]]
];

(* Called when a J/Link call about a server failed (a drain's, or any call on a link that is gone).
   Claiming the loss is one step under PreemptProtect, so a tick that preempts the main evaluation
   cannot report it a second time; the close handlers run after it, outside. *)
javaLost[handle_Integer, why_String] := With[{link = PreemptProtect[claimLoss[handle]]},
  If[link =!= None,
    (* The JVM may still be there (a poll that threw, not a JVM that went): let go of the server in
       Java too, so it does not keep its port and its clients with no handle left in WL. *)
    If[JavaLink[] === link, Quiet[javaCallOn[link, WSJavaLink`forgetServer[handle]]]];
    Message[WSJava::javalost, $servers[handle]["Object"], why];
    Scan[dispatchEvent[handle, {"Close", ToString[Last[#]], "0", "1006", "the Java runtime stopped", "", "", "", "", ""}] &,
      Select[Keys[$connectionInfo], First[#] === handle &]];
    forgetServer[handle]]];

(* The server's link, once: afterwards "Link" is None, so a close handler that sends or asks Java
   gets a Failure instead of starting a new JVM through InstallJava, and no second claim succeeds. *)
claimLoss[handle_Integer] := With[{link = Lookup[Lookup[$servers, handle, <||>], "Link", None]},
  If[link =!= None,
    removeDrainTask[handle];
    $servers[handle] = Append[$servers[handle], "Link" -> None]];
  link];

forgetServer[handle_Integer] := (
  KeyDropFrom[$servers, handle];
  KeyDropFrom[$draining, handle]; KeyDropFrom[$pending, handle];
  KeyDropFrom[$stopping, handle]; KeyDropFrom[$failures, handle]; KeyDropFrom[$lastTick, handle];
  KeyDropFrom[$connectionInfo, Select[Keys[$connectionInfo], First[#] === handle &]];
);

(* Handles the events an Abort left over, then one batch from Java (waiting up to waitMillis for
   its first event). Gives the number of events, Missing["Busy"] while another drain of this
   server is under way, or a Failure. A DeleteObject from one of the server's own handlers is
   finished here, once the batch is done (stopServer). *)
drainOnce[handle_Integer, waitMillis_Integer] := Module[{count},
  If[TrueQ[$draining[handle]], Return[Missing["Busy"]]];
  count = WithCleanup[
    $draining[handle] = True,
    Module[{left = Lookup[$pending, handle, {}], flat},
      $pending[handle] = {};
      (* Quiet: a failed poll is reported once, as the loss of this server's Java (below, outside
         the Quiet). javaCallOn, not serverCall: serverCall would report it in here, unheard, as
         it did for WLJS's UI kernel, which drains by WSJavaWait[server, 0] after a ReinstallJava. *)
      flat = If[left === {}, Quiet[javaCallOn[Lookup[Lookup[$servers, handle, <||>], "Link", None],
        WSJavaLink`poll[handle, waitMillis, $batchSize]]], {}];
      If[FailureQ[flat], flat,
        With[{events = Join[left, Partition[flat, $eventFields]]},
          dispatchBatch[handle, events];
          Length[events]]]],
    If[KeyExistsQ[$servers, handle], $draining[handle] = False]
  ];
  If[TrueQ[$stopping[handle]], finishStop[handle]];
  If[FailureQ[count], javaLost[handle, If[First[count] === "WSJavaJavaGone", "UninstallJava or ReinstallJava",
    ToString[Replace[count["Message"], Except[_String] -> count[[1]]]]]]];
  count
];

(* An Abort goes through, as the user meant it to; the events after the one it ended wait for the
   next drain (the aborted one is not run again: the user may have aborted a runaway handler). *)
dispatchBatch[handle_, events_List] := Module[{done = 0},
  CheckAbort[
    Scan[(done++; dispatchEvent[handle, #]) &, events],
    If[KeyExistsQ[$servers, handle], $pending[handle] = Join[Drop[events, done], Lookup[$pending, handle, {}]]];
    Abort[]]
];

(* ---- one event ---- *)

dispatchEvent[handle_, {type_, id_, millis_, code_, data_, path_, query_, remote_, origin_, subprotocol_}] :=
  Module[{conn = WSJavaConnection[handle, FromDigits[id]], time = FromDigits[millis], text, bytes},
    Switch[type,
      "Open",
        $connectionInfo[conn] = <|"Path" -> path, "Query" -> query, "RemoteAddress" -> remote,
          "Origin" -> If[origin === "", None, origin], "Subprotocol" -> If[subprotocol === "", None, subprotocol]|>;
        wljsOpened[handle, conn];
        callHandler[handle, "ConnectionOpened", conn, time, <||>],
      (* A client's reconnecting: the same connection, with what its new connection said at open. *)
      "Reopened",
        $connectionInfo[conn] = <|"Path" -> path, "Query" -> query, "RemoteAddress" -> remote,
          "Origin" -> If[origin === "", None, origin], "Subprotocol" -> If[subprotocol === "", None, subprotocol]|>;
        callHandler[handle, "ConnectionReopened", conn, time, <||>],
      "Reconnecting",
        callHandler[handle, "Reconnecting", conn, time, <|"Attempt" -> FromDigits[code], "Delay" -> FromDigits[data] / 1000.|>],
      "GaveUp",
        callHandler[handle, "ReconnectGaveUp", conn, time, <|"Reason" -> data|>],
      (* "Text8": text with characters beyond the BMP, carried as UTF-8 bytes, so no surrogate
         pair ever crosses J/Link (StringToByteArray of one would give CESU-8). *)
      "Text" | "Text8" | "Binary",
        {text, bytes} = Switch[type,
          "Text", {data, None},
          "Text8", With[{b = fromJava[data]}, {ByteArrayToString[b, "UTF-8"], b}],
          "Binary", {None, fromJava[data]}];
        wljsMessage[handle, conn, text, bytes];
        callHandler[handle, "MessageReceived", conn, time,
          <|"Data" -> If[type === "Binary", bytes, text], "DataType" -> If[type === "Binary", "Binary", "Text"],
            "DataByteArray" :> If[bytes === None, StringToByteArray[text, "UTF-8"], bytes]|>],
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

(* Runs one handler call (a handler, or a WLJS deserializer or condition). Gives its value, or
   $Failed when it threw. Check is not used: it would turn a handler's harmless message into a
   lost event, and it catches neither Throw nor Abort. Untagged and tagged Throws are caught here;
   an Abort is not (see dispatchBatch). The messages are found in $MessageList, which records
   them even when they are quieted or past General::stop. *)
SetAttributes[runContained, HoldFirst];
runContained[call_, event_String, conn_] := Module[{before = Length[$MessageList], outcome, issued},
  outcome = Catch[Catch[handlerReturned[call], _, handlerThrew[#2] &]];
  issued = Drop[$MessageList, Min[before, Length[$MessageList]]];
  Which[
    MatchQ[outcome, _handlerThrew],
      handlerFailed[event, conn, "threw with tag " <> ToString[First[outcome], InputForm], issued, True],
    !MatchQ[outcome, _handlerReturned],
      handlerFailed[event, conn, "threw without a tag", issued, True],
    issued =!= {},
      handlerFailed[event, conn, "issued messages", issued, False]; First[outcome],
    True, First[outcome]
  ]
];

(* A Throw shows nothing by itself, so it gets a message; a handler's own messages were shown
   already and get no second one. Either way the failure is recorded, newest last. *)
handlerFailed[event_, conn_, what_String, issued_List, tellUser_] := (
  If[tellUser, Message[WSJava::handler, event, conn, what]];
  recordFailure[conn, Failure["WSJavaHandlerFailed", <|
    "MessageTemplate" -> "The \"`Event`\" handler for `Connection` `What`.",
    "MessageParameters" -> <|"Event" -> event, "Connection" -> conn, "What" -> what|>,
    "Event" -> event, "Connection" -> conn, "Messages" -> issued, "Timestamp" -> Now|>]];
  $Failed
);

(* The last $failuresKept failures of each server, newest last, and how many there were. A
   handler called on something that is not a connection (the drop-in handler applied by hand)
   has no server to record it. *)
recordFailure[WSJavaConnection[handle_, _], failure_] /; KeyExistsQ[$servers, handle] :=
  With[{record = Lookup[$failures, handle, <|"Count" -> 0, "Recent" -> {}|>]},
    $failures[handle] = <|"Count" -> record["Count"] + 1,
      "Recent" -> Take[Append[record["Recent"], failure], -Min[$failuresKept, record["Count"] + 1]]|>];
recordFailure[_, _] := Null;

handlerFailures[handle_] := Lookup[Lookup[$failures, handle, <||>], "Recent", {}];
handlerFailureCount[handle_] := Lookup[Lookup[$failures, handle, <||>], "Count", 0];

(* ---- for scripts ---- *)

(* Handles events until the server stops or limit seconds have passed; gives how many. Blocks in
   Java for at most 20 ms at a time, so a message is handled as soon as it arrives. A limit of 0
   handles what is queued now and returns at once (for a loop of one's own). An Abort (Ctrl-C)
   ends it, as it ends any evaluation. *)
WSJavaWait[server : (_?knownServerQ | _?knownClientQ), limit_?NumericQ] /; limit == 0 :=
  With[{n = drainOnce[server[[1, "Handle"]], 0]}, If[MissingQ[n], 0, n]];
WSJavaWait[server : (_?knownServerQ | _?knownClientQ), limit : (Infinity | _?NumericQ) : Infinity] /; limit > 0 :=
  Module[{handle = server[[1, "Handle"]], deadline = AbsoluteTime[] + limit, count = 0, failure = None, running, n},
    rearmDrainTask[handle];
    While[failure === None && KeyExistsQ[$servers, handle] && AbsoluteTime[] < deadline,
      running = TrueQ[serverCall[handle, WSJavaLink`isRunning[handle]]];
      (* Once it has stopped, what is still queued (the close events) is handled, then it returns. *)
      n = drainOnce[handle, If[running, Round[1000 Min[0.02, Max[0, deadline - AbsoluteTime[]]]], 0]];
      Which[
        IntegerQ[n], count += n,
        MissingQ[n], Pause[0.005],   (* the task is draining right now *)
        True, failure = n
      ];
      If[!running && n === 0, Break[]]
    ];
    If[failure === None, count, failure]
  ];
WSJavaWait[server : (_WSJavaServer | _WSJavaClient), ___] /; !knownServerQ[server] && !knownClientQ[server] := goneFailure[server];
WSJavaWait[args___] := argumentFailure[WSJavaWait, {args}, "a WSJavaServer or WSJavaClient and optionally a time limit in seconds"];

End[];

EndPackage[];
