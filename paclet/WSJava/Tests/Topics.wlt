(* Tests for Kernel/Topics.wl: subscribe, unsubscribe, publish to exactly a topic's subscribers.
   "DrainInterval" -> None: only this file's WSJavaWait handles events. *)

Needs["WSJava`"];
Get[FileNameJoin[{DirectoryName[$TestFileName], "TestClient.wl"}]];

$opened = {};
$server = WSJavaListen[0, "DrainInterval" -> None, HandlerFunctions -> <|"ConnectionOpened" -> (AppendTo[$opened, #Connection] &)|>];
{$a, $statusA} = testConnect[$server];
{$b, $statusB} = testConnect[$server];
waitUntil[$server, Length[$opened] == 2 &];
(* Told apart by their ports, not by the order their opens were handled in. *)
{$connA, $connB} = PadRight[SortBy[$opened, Last], 2, None];

VerificationTest[
  {WSJavaSubscribe[$connA, "sin"], WSJavaSubscribe[$connB, "cos"], $connA["Topics"], $connB["Topics"]},
  {Success["WSJavaSubscribed", KeyValuePattern["Topic" -> "sin"]], Success["WSJavaSubscribed", _], {"sin"}, {"cos"}},
  SameTest -> MatchQ,
  TestID -> "Topics-SubscribeAndList"
]

VerificationTest[
  (* Only the topic's subscriber gets it: b's next message is the one published to "cos". *)
  {WSJavaPublish[$server, "sin", "0.5"], WSJavaPublish[$server, "cos", "0.9"], WSJavaPublish[$server, "tan", "x"],
   ByteArrayToString[First[testRead[$a]]["Payload"]], ByteArrayToString[First[testRead[$b]]["Payload"]]},
  {1, 1, 0, "0.5", "0.9"},
  TestID -> "Topics-PublishReachesExactlyItsSubscribers"
]

VerificationTest[
  {WSJavaPublish[$server, "sin", ByteArray[{1, 2, 3}]], First[testRead[$a]][[{"Opcode", "Payload"}]],
   WSJavaPublish[$server, "sin", "\|01F600"], Normal[First[testRead[$a]]["Payload"]]},
  {1, <|"Opcode" -> "Binary", "Payload" -> ByteArray[{1, 2, 3}]|>, 1, {240, 159, 152, 128}},
  TestID -> "Topics-BinaryAndTextBeyondTheBMPKeepTheirType"
]

VerificationTest[
  {WSJavaUnsubscribe[$connA, "sin"]["WasSubscribed"], WSJavaUnsubscribe[$connA, "sin"]["WasSubscribed"], $connA["Topics"],
   WSJavaPublish[$server, "sin", "nobody"]},
  {True, False, {}, 0},
  TestID -> "Topics-Unsubscribe"
]

VerificationTest[
  (* The kernel issues General::stop together with the third identical message, not instead of a fourth. *)
  {WSJavaSubscribe[$connA, ""], WSJavaPublish[$server, StringRepeat["t", 257], "x"], WSJavaSubscribe[$connA, "\|01F600"]},
  {Failure["WSJavaBadArguments", _], Failure["WSJavaBadArguments", _], Failure["WSJavaBadArguments", _]},
  {WSJava::args, WSJava::args, WSJava::args, General::stop},
  SameTest -> MatchQ,
  TestID -> "Topics-ATopicIsOneTo256Characters"
]

VerificationTest[
  (* A closed connection leaves its topics: the publish reaches nobody, and a subscribe is refused. *)
  Close[$b];
  waitUntil[$server, !TrueQ[$connB["Open"]] &];
  {WSJavaPublish[$server, "cos", "after the close"], WSJavaSubscribe[$connB, "cos"]},
  {0, Failure["WSJavaNotSubscribed", _]},
  {WSJava::nosub},
  SameTest -> MatchQ,
  TestID -> "Topics-AClosedConnectionLeavesItsTopics"
]

Close[$a];
DeleteObject[$server];
