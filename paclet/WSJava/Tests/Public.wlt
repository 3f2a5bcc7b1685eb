(* Tests for Kernel/Public.wl: the public symbols have SyntaxInformation and are protected, and the
   paclet still works on them and can be read again. *)

Needs["WSJava`"];

VerificationTest[
  {SyntaxInformation[WSJavaListen], SyntaxInformation[WSJavaSend], SyntaxInformation[WSJavaWait]},
  {{"ArgumentsPattern" -> {_, _., OptionsPattern[]}, "OptionNames" -> {"HandlerFunctions", "HandlerFunctionsKeys", "AllowedOrigins",
      "Token", "MaxMessageSize", "MaxConnections", "Subprotocols", "Compression", "TLS", "PingInterval", "IdleTimeout", "Page", "DrainInterval"}},
   {"ArgumentsPattern" -> {_, _}}, {"ArgumentsPattern" -> {_, _.}}},
  TestID -> "Public-SyntaxInformation"
]

VerificationTest[
  AllTrue[{WSJava, WSJavaInfo, WSJavaMask, WSJavaAcceptKey, WSJavaHandshake, WSJavaEncodeFrame, WSJavaDecodeFrames,
    WSJavaListen, WSJavaServer, WSJavaConnection, WSJavaSend, WSJavaBroadcast, WSJavaSubscribe, WSJavaUnsubscribe,
    WSJavaPublish, WSJavaClose, WSJavaConnect, WSJavaClient, WSJavaWait}, MemberQ[Attributes[#], Protected] &],
  True,
  TestID -> "Public-EverySymbolIsProtected"
]

VerificationTest[
  (* A user's assignment fails loudly, as it does for a built-in. *)
  WSJavaListen[x_String] := x,
  $Failed,
  {SetDelayed::write},
  TestID -> "Public-AnAssignmentIsRefused"
]

VerificationTest[
  (* Reading the paclet again (Get, as a developer does) defines everything again, with no message. *)
  Get[FileNameJoin[{DirectoryName[$TestFileName], "..", "Kernel", "WSJava.wl"}]];
  {MemberQ[Attributes[WSJavaListen], Protected], Head[WSJavaEncodeFrame["x"]]},
  {True, ByteArray},
  TestID -> "Public-ThePacletCanBeReadAgain"
]

VerificationTest[
  (* What the paclet sets at run time lives in its private state: a server still starts, and stops. *)
  With[{s = WSJavaListen[0, "DrainInterval" -> None]}, {Head[s], DeleteObject[s]}],
  {WSJavaServer, Null},
  TestID -> "Public-ServersStillWorkOnProtectedSymbols"
]
