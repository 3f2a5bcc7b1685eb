(* Tests for Kernel/Events.wl: one association per event, contained handlers, order, the drain
   task in every kind of kernel, and what happens when Java goes away. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$log = {};
$server = WSJavaListen[0, HandlerFunctions -> <|
    "ConnectionOpened" -> Function[e, AppendTo[$log, {"open", e["Connection"]["Path"]}]],
    "MessageReceived" -> Function[e, Switch[e["Data"],
      "throw", Throw[1],
      "tagged", Throw[1, "tag"],
      "abort", Abort[],
      "message", 1/0,
      _, AppendTo[$log, e["Data"]]]],
    "ConnectionClosed" -> Function[e, AppendTo[$log, {"closed", e["CloseCode"], e["Connection"]["Path"]}]]|>,
  HandlerFunctionsKeys -> {"Event", "Connection", "Data", "DataType", "CloseCode", "Path"}];
{$socket, $status} = testConnect[$server];

VerificationTest[
  waitUntil[$server, MemberQ[$log, {"open", "/chat"}] &],
  True,
  TestID -> "Events-OpenedWithItsPath"
]

VerificationTest[
  Scan[testSend[$socket, #] &, {"a", "throw", "b", "tagged", "c", "abort", "d", "message", "e"}];
  waitUntil[$server, MemberQ[$log, "e"] &];
  Select[$log, StringQ],
  {"a", "b", "c", "d", "e"},
  {WSJava::handler, WSJava::handler, WSJava::handler, Power::infy, WSJava::handler},
  TestID -> "Events-AThrowAnAbortOrAMessageCostsOnlyItsOwnEvent"
]

VerificationTest[
  Module[{seen = None, s},
    s = WSJavaListen[0, HandlerFunctions -> <|"MessageReceived" -> ((seen = #) &)|>];
    testSend[First[testConnect[s]], ByteArray[{1, 2, 3}]];
    waitUntil[s, AssociationQ[seen] &];
    DeleteObject[s];
    {Sort[Keys[seen]], seen["Data"], seen["DataType"], DateObjectQ[seen["Timestamp"]]}],
  {Sort[{"Event", "Server", "Connection", "Timestamp", "Data", "DataType"}], ByteArray[{1, 2, 3}], "Binary", True},
  TestID -> "Events-DefaultKeysLikeSocketListen"
]

VerificationTest[
  (* No WSJavaWait: the scheduled task drains while the kernel evaluates something else. *)
  Module[{got = None, s},
    s = WSJavaListen[0, HandlerFunctions -> <|"MessageReceived" -> ((got = #Data) &)|>];
    testSend[First[testConnect[s]], "by the task"];
    Do[If[got === None, Pause[0.05]], {100}];
    DeleteObject[s];
    got],
  "by the task",
  TestID -> "Events-TheTaskDrainsWithoutWSJavaWait"
]

VerificationTest[
  Close[$socket];
  waitUntil[$server, MemberQ[$log, {"closed", _, _}] &];
  Cases[$log, {"closed", code_, path_} :> {IntegerQ[code], path}],
  {{True, "/chat"}},
  TestID -> "Events-ACloseHandlerStillSeesThePath"
]

VerificationTest[
  Module[{s = WSJavaListen[0], socket},
    socket = First[testConnect[s]];
    {WSJavaWait[s, 0.3] >= 1, WSJavaWait[s, 0]}],
  {True, 0},
  TestID -> "Events-WaitReturnsAfterItsLimit"
]

VerificationTest[
  (* After ReinstallJava the server died with its JVM: the task removes itself and reports the
     clients closed with 1006, instead of failing (or starting Java again) every tick. *)
  Module[{closed = {}, s, task},
    s = WSJavaListen[0, HandlerFunctions -> <|"ConnectionClosed" -> (AppendTo[closed, #CloseCode] &)|>];
    testConnect[s];
    waitUntil[s, Length[s["Connections"]] == 1 &];
    WSJavaWait[s, 0.2];
    task = WSJava`Private`$servers[s[[1, "Handle"]]]["Task"];
    ReinstallJava[];
    Pause[0.5];
    {MemberQ[Tasks[], task], closed, s["Running"]}],
  {False, {1006}, False},
  {WSJava::javalost},
  TestID -> "Events-TheTaskRemovesItselfWhenJavaGoes"
]

DeleteObject[$server];
