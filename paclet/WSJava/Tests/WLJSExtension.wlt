(* Tests for Kernel/WLJSExtension.wl: WLJS's two listeners taken over with no edit to WLJS's
   files. WLJS's UI kernel is played by this kernel, with stand-ins shaped like WLJS 3.0.x
   (WLJSAppShapes.wl): the extension is armed as start.wls would arm it, then the listeners are
   opened with the same expressions WLJS uses (start.wls, Frontend/KernelUtils.wl). *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];
Get[FileNameJoin[{DirectoryName[$TestFileName], "WLJSFixture.wl"}]];
Get[FileNameJoin[{DirectoryName[$TestFileName], "WLJSAppShapes.wl"}]];
Needs["WSJava`WLJSExtension`"];

(* Three free ports: WSJava servers on port 0 find them (all held at once, so they differ), and give them back. *)
freePorts[n_] := Module[{servers = Table[WSJavaListen[0, "DrainInterval" -> None], n], ports},
  ports = #["Port"] & /@ servers; DeleteObject /@ servers; ports];
{$uiPort, $evalPort, $otherPort} = freePorts[3];
System`$Env = <|"host" -> "127.0.0.1", "http" -> 20560, "ws" -> $uiPort, "ws2" -> $evalPort, "wsprefix" -> False,
  "AppJSON" -> <|"version" -> "3.0.1"|>|>;

$said = {};
wljsHandler[tag_] := Module[{ws = CoffeeLiqueur`WebSocketHandler`WebSocketUHandler[]},
  With[{h = ws}, h["MessageHandler", "Evaluate"] = Function[True] -> Function[{client, data},
    AppendTo[$said, tag <> ByteArrayToString[data]];
    CoffeeLiqueur`WebSocketHandler`WebSocketUSend[client, tag <> ByteArrayToString[data]]]];
  ws];

VerificationTest[
  With[{status = WSJava`WLJSExtension`ArmUIKernel[]}, {status["Armed"], status["Notes"]}],
  {{{"127.0.0.1", $uiPort, "UI"}}, {}},
  TestID -> "WLJSExtension-ArmsTheUIKernel"
]

VerificationTest[
  (* start.wls: the handler goes into a TCPUServer, and SocketListen[USocketOpen[host, ws], wcp@#&, ...]. *)
  Module[{server, socket, reply},
    ws = wljsHandler["ui:"];
    wcp = CoffeeLiqueur`TCPServer`TCPUServer[];
    With[{t = wcp}, t["MessageHandler", "WebSocket"] = CoffeeLiqueur`WebSocketHandler`WebSocketUPacketQ -> ws];
    SocketListen[CoffeeLiqueur`CSockets`USocketOpen[System`$Env["host"], System`$Env["ws"]], wcp@#&,
      "SocketEventsHandler" -> CoffeeLiqueur`CSockets`EventsExtension`CSocketsClosingHandler];
    server = WSJava`WLJSExtension`Status[]["Servers"][{"127.0.0.1", $uiPort}];
    socket = First[testConnect[server]];
    testSend[socket, "1+1"];
    (* The UI kernel drains in WLJS's own loop, as a microtask: run that loop by hand. *)
    Do[If[!MemberQ[$said, "ui:1+1"], WSJavaTests`WLJSApp`runMicrotasks[]; Pause[0.01]], {500}];
    reply = testRead[socket];
    Close[socket];
    {Head[server], WSJavaTests`WLJSApp`$csocketsListens, WSJava`WLJSExtension`Status[]["Armed"], First[reply, <||>]["Payload"]}],
  {WSJavaServer, {}, {}, StringToByteArray["ui:1+1"]},
  TestID -> "WLJSExtension-TakesOverTheUIListener"
]

VerificationTest[
  (* No page on WLJS's kernel ports: any web page could open it, and the demo page's self-test
     and text box would reach the kernel's ToExpression. *)
  With[{body = testGet[$uiPort, "/?selftest=1"]}, {StringQ[body], StringContainsQ[body, "<html", IgnoreCase -> True]}],
  {True, False},
  TestID -> "WLJSExtension-ServesNoPageOnWLJSsPorts"
]

VerificationTest[
  (* Frontend/KernelUtils.wl sends the evaluation kernel's listener with GenericKernel`Init; the
     extension's hook goes on the same link just before it, and arms that kernel. *)
  Module[{kernel = WSJavaTests`WLJSApp`newKernel[], server, socket, reply},
    WSJavaTests`WLJSApp`$inits = {};
    With[{host = "127.0.0.1", port = $evalPort, make = wljsHandler},
      CoffeeLiqueur`Notebook`Kernel`Init[kernel, Module[{tcp, handler},
        tcp = CoffeeLiqueur`TCPServer`TCPUServer[];
        handler = make["eval:"];
        With[{t = tcp}, t["MessageHandler", "WebSocket"] = CoffeeLiqueur`WebSocketHandler`WebSocketUPacketQ -> handler];
        SocketListen[CoffeeLiqueur`CSockets`USocketOpen[host, port], tcp@#&,
          "SocketEventsHandler" -> CoffeeLiqueur`CSockets`EventsExtension`CSocketsClosingHandler]]]];
    server = WSJava`WLJSExtension`Status[]["Servers"][{"127.0.0.1", $evalPort}];
    socket = First[testConnect[server]];
    testSend[socket, "2+2"];
    waitUntil[server, MemberQ[$said, "eval:2+2"] &];
    reply = testRead[socket];
    Close[socket];
    {Length[WSJavaTests`WLJSApp`$inits], !FreeQ[First[WSJavaTests`WLJSApp`$inits], WSJava`WLJSExtension`ArmEvaluationKernel],
     Head[server], WSJavaTests`WLJSApp`$csocketsListens, First[reply, <||>]["Payload"]}],
  {2, True, WSJavaServer, {}, StringToByteArray["eval:2+2"]},
  TestID -> "WLJSExtension-TakesOverTheEvaluationKernelsListener"
]

VerificationTest[
  (* An Init without a listener in it is WLJS's business alone. *)
  Module[{kernel = WSJavaTests`WLJSApp`newKernel[]},
    WSJavaTests`WLJSApp`$inits = {};
    CoffeeLiqueur`Notebook`Kernel`Init[kernel, 1 + 1];
    WSJavaTests`WLJSApp`$inits],
  {Hold[1 + 1]},
  TestID -> "WLJSExtension-OtherInitsPassUnchanged"
]

VerificationTest[
  (* Anything unexpected at the listener (here an option WSJava does not know WLJS to pass) gives
     WLJS exactly the listener it asked for, from its own sockets. *)
  WSJava`WLJSExtension`ArmEvaluationKernel["127.0.0.1", $otherPort];
  SocketListen[CoffeeLiqueur`CSockets`USocketOpen["127.0.0.1", $otherPort], wcp@#&, "BufferSize" -> 4096];
  {Last[WSJavaTests`WLJSApp`$csocketsListens, None], StringContainsQ[Last[WSJava`WLJSExtension`Status[]["Notes"]], "unexpected SocketListen options"]},
  {{"127.0.0.1", $otherPort}, True},
  TestID -> "WLJSExtension-SomethingUnexpectedKeepsWLJSsSockets"
]

VerificationTest[
  (* The HTTP listener, and any port not armed, reach CSockets as before. *)
  SocketListen[CoffeeLiqueur`CSockets`USocketOpen["127.0.0.1", 20560], Identity];
  Last[WSJavaTests`WLJSApp`$csocketsListens],
  {"127.0.0.1", 20560},
  TestID -> "WLJSExtension-OtherPortsAreLeftAlone"
]

VerificationTest[
  (* Not WLJS's UI kernel: nothing is armed, and a note says why. *)
  Block[{System`$Env = <||>},
    With[{before = Length[WSJava`WLJSExtension`Status[]["Notes"]], status = WSJava`WLJSExtension`ArmUIKernel[]},
      {status["Armed"], Length[status["Notes"]] - before, StringContainsQ[Last[status["Notes"]], "$Env"]}]],
  {{}, 1, True},
  TestID -> "WLJSExtension-AnUnknownStructureIsLeftAlone"
]

VerificationTest[
  (* A WLJS version this WSJava was not checked against is served when its structure matches, and says so. *)
  Block[{System`$Env = Append[System`$Env, "AppJSON" -> <|"version" -> "9.9.9"|>]},
    With[{status = WSJava`WLJSExtension`ArmUIKernel[]},
      {MemberQ[status["Armed"], {"127.0.0.1", $uiPort, "UI"}], StringContainsQ[Last[status["Notes"]], "9.9.9 was not checked"]}]],
  {True, True},
  TestID -> "WLJSExtension-AnUncheckedVersionIsServedAndNoted"
]

DeleteObject /@ Values[WSJava`WLJSExtension`Status[]["Servers"]];
System`$Env =.;
