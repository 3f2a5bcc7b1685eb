(* Tests for Kernel/Events.wl: one association per event, contained handlers, order, the drain
   task in every kind of kernel, and what happens when Java goes away. Servers that are not about
   the task use "DrainInterval" -> None, so that only the test's own WSJavaWait handles events. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$log = {};
$server = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|
    "ConnectionOpened" -> Function[e, AppendTo[$log, {"open", e["Connection"]["Path"]}]],
    "MessageReceived" -> Function[e, Switch[e["Data"],
      "throw", Throw[1],
      "tagged", Throw[1, "tag"],
      "abort", Abort[],
      "message", 1/0; AppendTo[$log, "after the message"],
      _, AppendTo[$log, e["Data"]]]],
    "ConnectionClosed" -> Function[e, AppendTo[$log, {"closed", e["CloseCode"], e["Connection"]["Path"]}]]|>,
  HandlerFunctionsKeys -> {"Event", "Connection", "Data", "DataType", "CloseCode", "Path"}];
{$socket, $status} = testConnect[$server];

VerificationTest[
  {$status, waitUntil[$server, MemberQ[$log, {"open", "/chat"}] &]},
  {"HTTP/1.1 101 Switching Protocols", True},
  TestID -> "Events-OpenedWithItsPath"
]

VerificationTest[
  (* A Throw costs its own event and says so; a message is the kernel's to show (no second one
     of ours), and the handler's work still counts. Three messages: General::stop cannot interfere. *)
  Scan[testSend[$socket, #] &, {"a", "throw", "b", "tagged", "c", "message", "d"}];
  waitUntil[$server, MemberQ[$log, "d"] &];
  {Select[$log, StringQ], Length[$server["HandlerFailures"]], Last[$server["HandlerFailures"]]["Messages"]},
  {{"a", "b", "c", "after the message", "d"}, 3, {HoldForm[Power::infy]}},
  {WSJava::handler, WSJava::handler, Power::infy},
  TestID -> "Events-AThrowOrAMessageCostsOnlyItsOwnEvent"
]

VerificationTest[
  (* A user's abort (or the handler's own Abort[]) goes through WSJavaWait, as it goes through any
     evaluation; what came after it is handled by the next drain, not lost. *)
  Scan[testSend[$socket, #] &, {"abort", "after the abort"}];
  {CheckAbort[WSJavaWait[$server, 5], "aborted"], waitUntil[$server, MemberQ[$log, "after the abort"] &]},
  {"aborted", True},
  TestID -> "Events-AnAbortGoesThroughAndLosesNothing"
]

VerificationTest[
  (* Off (or Quiet, or General::stop after three) silences the message, never the record. *)
  Module[{before = $server["Statistics"]["HandlerFailures"]},
    Off[WSJava::handler];
    Do[testSend[$socket, "throw"], {5}];
    testSend[$socket, "done throwing"];
    waitUntil[$server, MemberQ[$log, "done throwing"] &];
    On[WSJava::handler];
    $server["Statistics"]["HandlerFailures"] - before],
  5,
  TestID -> "Events-FailuresAreRecordedWhateverSilencesTheMessage"
]

VerificationTest[
  Module[{seen = None, s, socket},
    s = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|"MessageReceived" -> ((seen = #) &)|>];
    socket = First[testConnect[s]];
    testSend[socket, ByteArray[{1, 2, 3}]];
    waitUntil[s, AssociationQ[seen] &];
    Close[socket];
    DeleteObject[s];
    {Sort[Keys[seen]], seen["Data"], seen["DataType"], DateObjectQ[seen["Timestamp"]]}],
  {Sort[{"Event", "Server", "Connection", "Timestamp", "Data", "DataType"}], ByteArray[{1, 2, 3}], "Binary", True},
  TestID -> "Events-DefaultKeysLikeSocketListen"
]

VerificationTest[
  (* Beyond the BMP the text arrives whole: one character, and its exact UTF-8 bytes. *)
  Module[{seen = None, s, socket},
    s = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctionsKeys -> {"Data", "DataByteArray"},
      HandlerFunctions -> <|"MessageReceived" -> ((seen = #) &)|>];
    socket = First[testConnect[s]];
    testSend[socket, "\|01F600"];
    waitUntil[s, AssociationQ[seen] &];
    Close[socket];
    DeleteObject[s];
    {seen["Data"] === "\|01F600", StringLength[seen["Data"]], Normal[seen["DataByteArray"]]}],
  {True, 1, {240, 159, 152, 128}},
  TestID -> "Events-TextBeyondTheBMPArrivesWhole"
]

VerificationTest[
  (* No WSJavaWait: the scheduled task drains while the kernel evaluates something else. *)
  Module[{got = None, s, socket},
    s = WSJavaListen[0, "DrainInterval" -> 0.01, HandlerFunctions -> <|"MessageReceived" -> ((got = #Data) &)|>];
    socket = First[testConnect[s]];
    testSend[socket, "by the task"];
    Do[If[got === None, Pause[0.05]], {100}];
    Close[socket];
    DeleteObject[s];
    got],
  "by the task",
  TestID -> "Events-TheTaskDrainsWithoutWSJavaWait"
]

VerificationTest[
  (* TaskRemove /@ Tasks[] removes the drain task too; the first call on the server once the task
     has missed its ticks (ten intervals, at least a second) starts it again. *)
  Module[{s, handle, result},
    s = WSJavaListen[0, "DrainInterval" -> 0.01];
    handle = s[[1, "Handle"]];
    TaskRemove /@ Tasks[];
    Pause[1.5];
    result = {s["Running"], WSJava`Private`taskAliveQ[WSJava`Private`$servers[handle]["Task"]]};
    DeleteObject[s];
    result],
  {True, True},
  {WSJava::rearmed},
  TestID -> "Events-ARemovedTaskIsStartedAgain"
]

VerificationTest[
  Close[$socket];
  waitUntil[$server, MemberQ[$log, {"closed", _, _}] &];
  Cases[$log, {"closed", code_, path_} :> {IntegerQ[code], path}],
  {{True, "/chat"}},
  TestID -> "Events-ACloseHandlerStillSeesThePath"
]

VerificationTest[
  Module[{s = WSJavaListen[0, "DrainInterval" -> None], socket, result},
    socket = First[testConnect[s]];
    result = {WSJavaWait[s, 0.3] >= 1, WSJavaWait[s, 0]};
    Close[socket];
    DeleteObject[s];
    result],
  {True, 0},
  TestID -> "Events-WaitReturnsAfterItsLimit"
]

VerificationTest[
  (* DeleteObject from the server's own handler: the drain under way finishes the stop, so the
     1001 closes still reach the close handler; WSJavaWait returns once the server is gone. *)
  Module[{closes = {}, s, a, b, handle},
    s = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|
      "MessageReceived" -> (If[#Data === "stop", DeleteObject[#Server]] &),
      "ConnectionClosed" -> (AppendTo[closes, #CloseCode] &)|>];
    handle = s[[1, "Handle"]];
    a = First[testConnect[s]]; b = First[testConnect[s]];
    WSJavaWait[s, 0.3];
    testSend[a, "stop"];
    WSJavaWait[s, 5];
    Close /@ {a, b};
    With[{result = {closes, KeyExistsQ[WSJava`Private`$servers, handle]}},
      If[Last[result], DeleteObject[s]];   (* only if the handler failed to *)
      result]],
  {{1001, 1001}, False},
  TestID -> "Events-DeleteObjectFromItsOwnHandlerRunsTheCloseHandlers"
]

DeleteObject[$server];

VerificationTest[
  (* Last, with no other server alive (each would report its own loss): after ReinstallJava the
     server died with its JVM; its tick removes the task and reports the clients closed with 1006,
     instead of failing, or starting Java again, every tick. ReinstallJava is J/Link's, which is
     not on a test file's context path; PreemptProtect keeps the 10 ms task out of it, and the
     test runs the tick itself rather than hope one comes during a Pause. *)
  Module[{closed = {}, others = Keys[WSJava`Private`$servers], s, socket, handle, task},
    s = WSJavaListen[0, "DrainInterval" -> 0.01, HandlerFunctions -> <|"ConnectionClosed" -> (AppendTo[closed, #CloseCode] &)|>];
    handle = s[[1, "Handle"]];
    socket = First[testConnect[s]];
    WSJavaWait[s, 0.3];
    task = WSJava`Private`$servers[handle]["Task"];
    PreemptProtect[JLink`ReinstallJava[]];
    WSJava`Private`drainTick[handle];
    Close[socket];
    With[{result = {others, WSJava`Private`taskAliveQ[task], closed, s["Running"]}},
      Quiet[DeleteObject[s]];   (* gone with its JVM: WSJava::gone, quieted *)
      result]],
  {{}, False, {1006}, False},
  {WSJava::javalost},
  TestID -> "Events-TheTaskRemovesItselfWhenJavaGoes"
]
