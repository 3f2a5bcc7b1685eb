(* ::Package:: *)

(* WLJS at the object level. WLJS's packages bind CoffeeLiqueur`WebSocketHandler`WebSocketUSend
   (and Events' EventFire, EventClone, EventRemove, and EventHandler) when they are read, so no
   package of ours can stand in for them. Instead a WSJavaConnection answers WLJS's own functions
   through UpValues, and WSJavaListen accepts WLJS's own WebSocketUHandler object, reading its
   "MessageHandler", "Deserializer", "DefaultMessageHandler" and "Connections" at each event, so
   handlers set later still count. The drop-in handler of WSJava`WLJS` (for use without WLJS) has
   the same shape and goes through the same code.

   Naming WLJS's symbols here creates them in WLJS's contexts when WLJS is not loaded; that puts
   nothing on $ContextPath. WebSocketHandler.wl starts with ClearAll["`*"], which clears the
   definitions of its own symbols, not these UpValues, which are stored with WSJavaConnection. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

$handlerContexts = {"CoffeeLiqueur`WebSocketHandler`", "WSJava`WLJS`"};

wljsHandlerQ[h_] := MatchQ[h, _Symbol[_Symbol]] &&
  With[{head = Head[h]}, SymbolName[head] === "WebSocketUHandler" && MemberQ[$handlerContexts, Context[head]]];

wljsHandlerOf[handle_] := With[{h = Lookup[Lookup[$servers, handle, <||>], "Handler", None]},
  If[wljsHandlerQ[h], h, None]];

(* WLJS's handler sets its own $CurrenctUClient (sic) before it calls a message handler. *)
setCurrentClient[h_, conn_] := If[With[{head = Head[h]}, Context[head]] === "WSJava`WLJS`",
  WSJava`WLJS`$CurrenctUClient = conn,
  CoffeeLiqueur`WebSocketHandler`$CurrenctUClient = conn];

wljsOpened[handle_, conn_] := With[{h = wljsHandlerOf[handle]},
  If[h =!= None, With[{c = h["Connections"]}, If[DataStructureQ[c], c["Insert", conn]]]]];

(* As WLJS's own handler does: the deserializer gets the message bytes (text as UTF-8), then the
   first handler whose condition gives True gets function[client, expr], else the default handler. *)
wljsMessage[handle_, conn_, text_, bytes_] := With[{h = wljsHandlerOf[handle]},
  If[h =!= None, dispatchTo[h, conn, If[bytes === None, StringToByteArray[text, "UTF-8"], bytes]]]];

dispatchTo[h_, conn_, bytes_ByteArray] := Module[{expr, rules, match},
  setCurrentClient[h, conn];
  expr = runContained[h["Deserializer"][bytes], "MessageReceived", conn];
  If[expr === $Failed, Return[$Failed]];
  rules = Select[Values[Replace[h["MessageHandler"], Except[_Association] -> <||>]], MatchQ[#, _Rule | _RuleDelayed] &];
  match = SelectFirst[rules, TrueQ[runContained[First[#][conn, expr], "MessageReceived", conn]] &, None];
  runContained[If[match === None, h["DefaultMessageHandler"], Last[match]][conn, expr], "MessageReceived", conn]
];

(* CSockets fires EventFire["csocket-" <> id, "Closed", True] when a socket closes; WLJS's UI
   tears its state down on that. The same event, for the id our UpValues give the connection. *)
wljsClosed[handle_, conn_] := Module[{h = wljsHandlerOf[handle]},
  If[h =!= None, With[{c = h["Connections"]}, If[DataStructureQ[c], c["Remove", conn]]]];
  If[MemberQ[$Packages, "CoffeeLiqueur`Misc`Events`"],
    runContained[CoffeeLiqueur`Misc`Events`EventFire[eventId[conn], "Closed", True], "ConnectionClosed", conn];
    Quiet[CoffeeLiqueur`Misc`Events`EventRemove[eventId[conn]]]
  ]
];

eventId[WSJavaConnection[handle_Integer, id_Integer]] := "wsjava-" <> ToString[handle] <> "-" <> ToString[id];

(* ---- sending the way WLJS sends: a byte count, or $Failed (its liveness checks rely on it) ---- *)

wljsSend[conn : WSJavaConnection[handle_Integer, id_Integer], message_] := Module[{n},
  If[!connectionServerKnownQ[conn], Return[$Failed]];
  rearmDrainTask[handle];
  (* WLJS sends a ByteArray as a text frame: text when the bytes are UTF-8 (Java checks; a
     ByteArrayToString never fails, so it cannot tell), binary otherwise, never corrupted. *)
  n = Quiet[sendMessage[handle, id, message, True]];
  If[IntegerQ[n] && n >= 0, n, $Failed]
];

(* Frames WLJS encoded itself (WebSocketUSend is BinaryWrite[client, encodeFrame[message]]):
   Java sends their payloads as messages, whatever their size. *)
wljsWriteFrames[conn : WSJavaConnection[handle_Integer, id_Integer], frames_ByteArray] := Module[{n},
  If[!connectionServerKnownQ[conn], Return[$Failed]];
  rearmDrainTask[handle];   (* a send of any kind starts a removed drain task again, as wljsSend does *)
  n = Quiet[serverCall[handle, WSJavaLink`sendFramesBase64[handle, id, toJava[frames]]]];
  If[IntegerQ[n] && n >= 0, n, $Failed]
];

WSJavaConnection /: CoffeeLiqueur`WebSocketHandler`WebSocketUSend[conn_WSJavaConnection, message : (_String | _ByteArray)] :=
  wljsSend[conn, message];
WSJavaConnection /: BinaryWrite[conn_WSJavaConnection, frames_ByteArray] := wljsWriteFrames[conn, frames];
WSJavaConnection /: BinaryWrite[conn_WSJavaConnection, bytes : {___Integer}] :=
  If[AllTrue[bytes, 0 <= # <= 255 &], wljsWriteFrames[conn, ByteArray[bytes]], $Failed];

(* WLJS's Events functions on a client, as CSockets' EventsExtension.wl defines them on its sockets. *)
WSJavaConnection /: CoffeeLiqueur`Misc`Events`EventFire[conn_WSJavaConnection, args__] :=
  CoffeeLiqueur`Misc`Events`EventFire[eventId[conn], args];
WSJavaConnection /: CoffeeLiqueur`Misc`Events`EventClone[conn_WSJavaConnection] :=
  CoffeeLiqueur`Misc`Events`EventClone[eventId[conn]];
WSJavaConnection /: CoffeeLiqueur`Misc`Events`EventRemove[conn_WSJavaConnection, args___] :=
  CoffeeLiqueur`Misc`Events`EventRemove[eventId[conn], args];
WSJavaConnection /: EventHandler[conn_WSJavaConnection, args__] := EventHandler[eventId[conn], args];

End[];

EndPackage[];
