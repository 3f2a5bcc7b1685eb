(* ::Package:: *)

(* WSJava as a WLJS Notebook extension: both of WLJS's WebSocket listeners move to WSJava with no
   edit to WLJS's files, so a WLJS update overwrites nothing of ours. The extension folder
   (wljs/wsjava, installed by ./wsjava wljs install into WLJS's Extensions folder) holds one
   "frontend" file that calls ArmUIKernel[] when WLJS's UI kernel reads it (Scripts/start.wls gets
   every extension's frontend file before it opens its ws listener).

   How the takeover works, against WLJS 3.0.x (WLJSTeam/wolfram-js-frontend at e5059da9):
   - WLJS listens with SocketListen[USocketOpen[host, port], tcp@#&, "SocketEventsHandler" ->
     CSocketsClosingHandler], where tcp is a TCPUServer whose "MessageHandler" holds WLJS's
     WebSocketUHandler. USocketOpen binds nothing (SocketListen does). So a DownValue of ours,
     first in USocketOpen's list and armed for exactly one {host, port}, gives a deferred socket
     instead, and SocketListen on that serves the WebSocketUHandler with WSJavaListen. Anything
     unexpected (no handler, other options, WSJavaListen failing) runs WLJS's own call instead.
   - The UI kernel's own port is WLJS's "ws" ($Env["ws"], 20559).
   - An evaluation kernel gets its listener (port "ws2", 20563) from the UI kernel as a held
     expression sent with GenericKernel`Init over the kernel's main link, which evaluates packets
     in order. An UpValue of ours on LocalKernelObject, first in its list, sends a hook on the
     same link just before that expression: it loads this package in the evaluation kernel and
     arms the same interception there. (An extension's "kernel" file travels over another link,
     with no order against Init, so it cannot do this.)
   The structure is checked before anything is armed; a WLJS whose shape differs is left alone,
   with one line in WLJS's log saying why, and WLJS's own sockets serve it. Symbols of WLJS are
   named in full everywhere: this code also runs in kernels that have none of WLJS's contexts on
   $ContextPath, and what travels by Init keeps the full names it was read with. *)

BeginPackage["WSJava`WLJSExtension`", {"WSJava`"}];

ArmUIKernel::usage = "ArmUIKernel[] makes WSJava serve the WebSocket listeners of WLJS's UI kernel and of every evaluation kernel it starts, once WLJS's structure checks out, and gives Status[].";
ArmEvaluationKernel::usage = "ArmEvaluationKernel[host, port] makes WSJava serve WLJS's listener on host and port in this evaluation kernel, and gives Status[].";
Status::usage = "Status[] gives an association with \"WLJSVersion\", \"Armed\", \"Servers\" and \"Notes\": the listeners still to take over, the WSJavaServer serving each one taken, and why anything was refused.";

Unprotect[ArmUIKernel, ArmEvaluationKernel, Status];   (* loading twice redefines them *)

Begin["`Private`"];

(* The WLJS versions this was read against; another version is armed only if its structure
   matches, with a note. *)
$checkedVersions = {"3.0.0", "3.0.1"};

If[!ListQ[$armed], $armed = {}];
If[!AssociationQ[$taken], $taken = <||>];
If[!ListQ[$notes], $notes = {}];
$sendingHook = False;

note[text_String] := (AppendTo[$notes, text]; Echo[text, "WSJava: "]);

(* It also starts again the drain task of a server it lists, when TaskRemove /@ Tasks[] in a
   notebook removed it (an evaluation kernel's server is drained by that task alone). *)
Status[] := (
  Scan[If[MatchQ[#, _WSJavaServer], WSJava`Private`rearmDrainTask[#[[1, "Handle"]]]] &, Values[$taken]];
  <|"WLJSVersion" -> wljsVersion[], "Armed" -> $armed, "Servers" -> $taken, "Notes" -> $notes|>);

wljsVersion[] := Replace[Quiet[System`$Env["AppJSON"]["version"]], Except[_String] -> Missing["Unknown"]];

(* ---- the UI kernel ---- *)

ArmUIKernel[] := Module[{problems},
  problems = uiProblems[];
  If[problems =!= {},
    note["WLJS's sockets stay in use: " <> StringRiffle[problems, "; "]];
    Return[Status[]]];
  If[!MemberQ[$checkedVersions, wljsVersion[]],
    note["WLJS " <> ToString[wljsVersion[]] <> " was not checked by this WSJava; its structure matches, so WSJava serves it"]];
  arm[System`$Env["host"], System`$Env["ws"], "UI"];
  If[evaluationHookProblems[] === {}, installInitHook[],
    note["evaluation kernels keep WLJS's sockets: " <> StringRiffle[evaluationHookProblems[], "; "]]];
  Status[]
];

uiProblems[] := Join[
  If[AssociationQ[System`$Env] && StringQ[System`$Env["host"]] && IntegerQ[System`$Env["ws"]], {},
    {"$Env has no \"host\" and \"ws\" (is this WLJS's UI kernel?)"}],
  socketOpenProblems[]
];

socketOpenProblems[] := Which[
  DownValues[CoffeeLiqueur`CSockets`USocketOpen] === {}, {"CoffeeLiqueur`CSockets`USocketOpen is not defined"},
  MemberQ[Attributes[CoffeeLiqueur`CSockets`USocketOpen], Protected], {"CoffeeLiqueur`CSockets`USocketOpen is Protected"},
  True, {}
];

(* Reading this file creates the symbols it names, so what counts is their rules. *)
evaluationHookProblems[] := Which[
  FreeQ[UpValues[CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject], CoffeeLiqueur`Notebook`Kernel`Init],
    {"LocalKernelObject has no GenericKernel`Init rule"},
  !MemberQ[Attributes[CoffeeLiqueur`Notebook`Kernel`Init], HoldRest],
    {"GenericKernel`Init does not hold its expression"},
  True, {}
];

(* Sent to each evaluation kernel before the Init that opens its listener, on the same link. *)
installInitHook[] := (
  CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject /:
    CoffeeLiqueur`Notebook`Kernel`Init[kernel_CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject, expr_, opts___] /;
      !$sendingHook && ListQ[listenerIn[Hold[expr]]] :=
    Block[{$sendingHook = True},
      sendHook[kernel, listenerIn[Hold[expr]]];
      CoffeeLiqueur`Notebook`Kernel`Init[kernel, expr, opts]];
  UpValues[CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject] =
    ours[UpValues[CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject], $sendingHook];
);

(* {host, port} of the one SocketListen[USocketOpen[host, port], ...] in a held expression, else None. *)
listenerIn[held_Hold] := Replace[
  Cases[held, HoldPattern[SocketListen[CoffeeLiqueur`CSockets`USocketOpen[host_String, port_Integer], ___]] :> {host, port}, Infinity],
  {{one_List} :> one, _ -> None}];

(* The evaluation kernel finds the installed paclet itself; a kernel without it keeps WLJS's sockets. *)
sendHook[kernel_, {host_, port_}] := CoffeeLiqueur`Notebook`Kernel`Init[kernel,
  If[FailureQ[Quiet[Check[Needs["WSJava`WLJSExtension`"], $Failed]]],
    Echo["WSJava is not installed for this kernel (PacletInstall the WSJava paclet); WLJS's own sockets serve it", "WSJava: "],
    WSJava`WLJSExtension`ArmEvaluationKernel[host, port]];
  Null   (* nothing to echo into WLJS's log *)];

(* ---- the evaluation kernel ---- *)

ArmEvaluationKernel[host_String, port_Integer] := Module[{problems = socketOpenProblems[]},
  If[problems =!= {}, note["WLJS's sockets stay in use: " <> StringRiffle[problems, "; "]]; Return[Status[]]];
  arm[host, port, "Evaluation"];
  Status[]
];
ArmEvaluationKernel[args___] := WSJava`Private`argumentFailure[ArmEvaluationKernel, {args}, "a host String and a port"];

(* ---- the interception, the same in both kernels ---- *)

arm[host_String, port_Integer, kernel_String] := (
  installSocketOpenHook[];
  $armed = DeleteDuplicates[Append[$armed, {host, port, kernel}]];
);

armedQ[host_, port_] := MemberQ[$armed[[All, {1, 2}]], {host, port}];

(* Our rule goes first: a conditional rule could not be ranked against USocketOpen's own. *)
installSocketOpenHook[] := If[FreeQ[DownValues[CoffeeLiqueur`CSockets`USocketOpen], armedQ],
  CoffeeLiqueur`CSockets`USocketOpen[host_String, port_Integer] /; armedQ[host, port] := deferredSocket[host, port];
  DownValues[CoffeeLiqueur`CSockets`USocketOpen] = ours[DownValues[CoffeeLiqueur`CSockets`USocketOpen], armedQ]];

(* The rules that mention the marker symbol first, the others after them, each group in its
   order. HoldRest and HoldPattern: the marker may have a value ($sendingHook is False). *)
SetAttributes[ours, HoldRest];
ours[rules_List, marker_Symbol] := Join[Select[rules, !FreeQ[#, HoldPattern[marker]] &], Select[rules, FreeQ[#, HoldPattern[marker]] &]];

(* Runs at WLJS's own SocketListen line, outside any Catch of the extension's file: whatever goes
   wrong here (a Throw, an Abort, a message) gives WLJS its own listener, never none. *)
deferredSocket /: SocketListen[deferredSocket[host_, port_], handler_, opts___] := Module[{server},
  server = CheckAbort[Catch[Catch[takeOver[host, port, handler, {opts}], _, "threw" &]], "aborted"];
  If[MatchQ[server, _WSJavaServer], server,
    If[server =!= $Failed, note["the takeover of port " <> ToString[port] <> " stopped early (a Throw or an Abort)"]];
    (* A server started before things went wrong holds the port WLJS's own listener needs. *)
    If[KeyExistsQ[$taken, {host, port}], Quiet[DeleteObject[$taken[{host, port}]]]; KeyDropFrom[$taken, {{host, port}}]];
    SocketListen[CoffeeLiqueur`CSockets`USocketOpen[host, port], handler, opts]]];

(* Taken over once: the port is disarmed first, so WLJS's own call in the fallback above (and any
   later one) reaches USocketOpen's own rules. Gives the server, or $Failed after a note. *)
takeOver[host_, port_, handler_, opts_List] := Module[{kernel, ws, server},
  kernel = First[Cases[$armed, {host, port, k_} :> k], "UI"];
  $armed = DeleteCases[$armed, {host, port, _}];
  ws = wljsHandlerIn[handler];
  server = Which[
    ws === None, note["no single WebSocketUHandler behind the listener on port " <> ToString[port]]; $Failed,
    !MatchQ[opts, {} | {"SocketEventsHandler" -> CoffeeLiqueur`CSockets`EventsExtension`CSocketsClosingHandler}],
      note["unexpected SocketListen options " <> ToString[opts, InputForm] <> " on port " <> ToString[port]]; $Failed,
    True, listen[host, port, ws, kernel]];
  If[MatchQ[server, _WSJavaServer], server, $Failed]
];

(* The UI kernel's loop is WLJS's own While[True, MicrotasksRun[]; Pause[0.01]]: draining inside
   it, as a microtask, never preempts one of WLJS's handlers halfway (a scheduled task could). An
   Abort from a handler must not end that loop, so it stops there. An evaluation kernel has no
   such loop, so there the scheduled task drains. *)
listen[host_, port_, ws_, kernel_] := Module[{microtasks, server},
  microtasks = kernel === "UI" && DownValues[CoffeeLiqueur`Misc`Async`MicrotaskSubmit] =!= {};
  (* Decided by what it gives, not by messages: a server that started and warned is a server. *)
  (* 16 MiB whatever J/Link's heap: WLJS's editor sends dropped files in messages of over 5 MiB.
     No page: any web page may open http://host:port/, and the demo page's self-test and text box
     would feed the kernel's ToExpression; WLJS serves its UI from its own http port. *)
  server = Quiet[WSJavaListen[{host, port}, ws, "MaxMessageSize" -> 16777216, "Page" -> None,
    Sequence @@ If[microtasks, {"DrainInterval" -> None}, {}]]];
  If[!MatchQ[server, _WSJavaServer],
    note["WSJavaListen failed on port " <> ToString[port] <> ": " <> ToString[server, InputForm]]; Return[$Failed]];
  (* Kept before anything else can go wrong, so the fallback can let go of it (it holds the port). *)
  $taken[{host, port}] = server;
  If[microtasks, drainInWLJSLoop[server]];
  server
];

(* WSJavaWait[s, 0] handles what is queued and returns at once: one J/Link call per loop turn.
   Once the server is gone the microtask deletes itself. *)
drainInWLJSLoop[server_WSJavaServer] := With[{handle = server[[1, "Handle"]]},
  Module[{task},
    task = CoffeeLiqueur`Misc`Async`MicrotaskSubmit[
      CheckAbort[If[WSJava`Private`liveServerQ[handle], WSJavaWait[server, 0], Delete[task]], Null],
      "Continuous" -> True]]];

(* The WebSocketUHandler inside the listener's handler (tcp@#& names the TCPUServer symbol). *)
wljsHandlerIn[handler_] := Module[{servers, handlers},
  servers = DeleteDuplicates[Cases[handler, s_Symbol /; tcpServerSymbolQ[s] :> s, {0, Infinity}, Heads -> True]];
  handlers = DeleteDuplicates[Flatten[
    Cases[Values[Replace[#["MessageHandler"], Except[_Association] -> <||>]], (Rule | RuleDelayed)[_, h_] /; WSJava`Private`wljsHandlerQ[h] :> h] & /@ servers]];
  If[Length[handlers] == 1, First[handlers], None]
];

SetAttributes[tcpServerSymbolQ, HoldFirst];
tcpServerSymbolQ[s_Symbol] := MatchQ[s, _CoffeeLiqueur`TCPServer`TCPUServer];
tcpServerSymbolQ[_] := False;

SyntaxInformation[ArmUIKernel] = {"ArgumentsPattern" -> {}};
SyntaxInformation[ArmEvaluationKernel] = {"ArgumentsPattern" -> {_, _}};
SyntaxInformation[Status] = {"ArgumentsPattern" -> {}};
Protect[ArmUIKernel, ArmEvaluationKernel, Status];

End[];

EndPackage[];

(* Its names are only ever called in full (by the extension's file and the hook it sends), and a
   generic one such as Status must not land on the context path of the kernels where users type. *)
$ContextPath = DeleteCases[$ContextPath, "WSJava`WLJSExtension`"];
