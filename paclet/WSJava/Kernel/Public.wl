(* ::Package:: *)

(* The public symbols as the kernel shows built-ins: SyntaxInformation for each function (the
   front end and WLJS's editor mark a wrong argument count or an unknown option as you type), then
   Protect, once every file has given them their definitions. Read last (WSJava.wl). Nothing in the
   paclet assigns to a public symbol after loading: servers, connections and handlers live in
   private state ($servers, $connectionInfo), and WSJava.wl unprotects them before a reload. *)

BeginPackage["WSJava`"];

Begin["`Private`"];

syntax[f_Symbol, arguments_List] := (SyntaxInformation[f] = If[Options[f] === {},
  {"ArgumentsPattern" -> arguments},
  {"ArgumentsPattern" -> arguments, "OptionNames" -> (optionName /@ Keys[Options[f]])}]);

syntax[WSJavaInfo, {}];
syntax[WSJavaMask, {_, _}];
syntax[WSJavaAcceptKey, {_}];
syntax[WSJavaHandshake, {_, _.}];
syntax[WSJavaEncodeFrame, {_, OptionsPattern[]}];
syntax[WSJavaDecodeFrames, {_, OptionsPattern[]}];
syntax[WSJavaListen, {_, _., OptionsPattern[]}];
syntax[WSJavaSend, {_, _}];
syntax[WSJavaBroadcast, {_, _}];
syntax[WSJavaSubscribe, {_, _}];
syntax[WSJavaUnsubscribe, {_, _}];
syntax[WSJavaPublish, {_, _, _}];
syntax[WSJavaClose, {_, _., _.}];
syntax[WSJavaConnect, {_, _., OptionsPattern[]}];
syntax[WSJavaWait, {_, _.}];

End[];

Protect[{WSJava, WSJavaInfo, WSJavaMask, WSJavaAcceptKey, WSJavaHandshake, WSJavaEncodeFrame, WSJavaDecodeFrames,
  WSJavaListen, WSJavaServer, WSJavaConnection, WSJavaSend, WSJavaBroadcast, WSJavaSubscribe, WSJavaUnsubscribe,
  WSJavaPublish, WSJavaClose, WSJavaConnect, WSJavaClient, WSJavaWait}];

EndPackage[];
