(* ::Package:: *)

(* One client connection, WSJavaConnection[handle, id]: what it was at open, sending to it and
   closing it. Sends give a Success or a Failure (with a message), never a bare True or False. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::notopen = "`1` is not open.";

$connectionProperties = {"Server", "ID", "Open", "Path", "Query", "Origin", "RemoteAddress", "Subprotocol",
  "Headers", "Topics", "Properties"};

connectionServerKnownQ[WSJavaConnection[handle_Integer, _Integer]] := liveServerQ[handle];
connectionServerKnownQ[_] := False;

WSJavaConnection[handle_Integer, id_Integer][property_String] := connectionProperty[WSJavaConnection[handle, id], property];

connectionProperty[conn_, "Properties"] := $connectionProperties;
connectionProperty[conn_, "ID"] := Last[conn];
connectionProperty[conn_, "Server"] := Lookup[Lookup[$servers, First[conn], <||>], "Object", Missing["NotAvailable"]];
connectionProperty[conn_, "Open"] := connectionServerKnownQ[conn] && TrueQ[serverCall[First[conn], WSJavaLink`isOpen[First[conn], Last[conn]]]];
(* Kept from the "ConnectionOpened" event, so a "ConnectionClosed" handler still sees them. *)
connectionProperty[conn_, property : ("Path" | "Query" | "Origin" | "RemoteAddress" | "Subprotocol")] :=
  Lookup[Lookup[$connectionInfo, conn, <||>], property, Missing["NotAvailable"]];
connectionProperty[conn_, "Headers"] := If[connectionServerKnownQ[conn],
  With[{flat = serverCall[First[conn], WSJavaLink`connectionHeaders[First[conn], Last[conn]]]},
    If[FailureQ[flat], flat, Association[Rule @@@ Partition[flat, 2]]]],
  Missing["NotAvailable"]];
(* A server's connection's topics (Topics.wl); a client's connection subscribes to none. *)
connectionProperty[conn_, "Topics"] := Which[
  !connectionServerKnownQ[conn], Missing["NotAvailable"],
  MatchQ[$servers[First[conn]]["Object"], _WSJavaClient], {},
  True, serverCall[First[conn], WSJavaLink`topics[First[conn], Last[conn]]]];
connectionProperty[conn_, property_] := Missing["UnknownProperty", property];

notOpenFailure[conn_] := (
  Message[WSJava::notopen, conn];
  Failure["WSJavaNotOpen", <|"MessageTemplate" :> WSJava::notopen, "MessageParameters" -> {conn}|>]
);

sendOutcome[conn_, n_Integer] /; n >= 0 := Success["WSJavaSent", <|"MessageTemplate" -> "Sent `ByteCount` bytes.",
  "MessageParameters" -> <|"ByteCount" -> n|>, "Connection" -> conn, "ByteCount" -> n|>];
sendOutcome[conn_, failure_Failure] := failure;
sendOutcome[conn_, _] := notOpenFailure[conn];

WSJavaSend[conn : WSJavaConnection[handle_Integer, id_Integer], message : (_String | _ByteArray)] /; connectionServerKnownQ[conn] :=
  (rearmDrainTask[handle]; sendOutcome[conn, sendMessage[handle, id, message, False]]);
WSJavaSend[conn_WSJavaConnection, _String | _ByteArray] := notOpenFailure[conn];

(* One message to Java: the byte count sent, or a Failure. Text beyond the BMP goes as its UTF-8
   bytes, which Java sends as text (they are valid UTF-8). A ByteArray is binary, or, with
   textWhenUtf8 (WLJS's way), text when its bytes are UTF-8. *)
sendMessage[handle_, id_, text_String, _] := If[beyondBmpQ[text],
  serverCall[handle, WSJavaLink`sendBytesBase64[handle, id, toJava[StringToByteArray[text, "UTF-8"]], True]],
  serverCall[handle, WSJavaLink`sendText[handle, id, text]]];
sendMessage[handle_, id_, bytes_ByteArray, textWhenUtf8_] :=
  serverCall[handle, WSJavaLink`sendBytesBase64[handle, id, toJava[bytes], textWhenUtf8]];
WSJavaSend[args___] := argumentFailure[WSJavaSend, {args}, "a WSJavaConnection and a String (text) or ByteArray (binary)"];

(* Close codes an endpoint may send (RFC 6455 section 7.4, plus the IANA-registered 1012-1014). *)
closeCodeQ[code_Integer] := 1000 <= code <= 1003 || 1007 <= code <= 1014 || 3000 <= code <= 4999;
closeCodeQ[_] := False;

WSJavaClose[conn_WSJavaConnection] := WSJavaClose[conn, 1000, ""];
WSJavaClose[conn_WSJavaConnection, code_?closeCodeQ] := WSJavaClose[conn, code, ""];
WSJavaClose[conn : WSJavaConnection[handle_Integer, id_Integer], code_?closeCodeQ, reason_String] /;
    StringLength[reason] <= 123 :=
  If[connectionServerKnownQ[conn] && TrueQ[serverCall[handle, WSJavaLink`closeConnection[handle, id, code, reason]]],
    Success["WSJavaClosing", <|"MessageTemplate" -> "The close handshake has started.", "Connection" -> conn, "CloseCode" -> code|>],
    notOpenFailure[conn]];
WSJavaClose[args___] := argumentFailure[WSJavaClose, {args},
  "a WSJavaConnection, optionally a close code (1000-1003, 1007-1014, 3000-4999) and a reason of at most 123 characters"];

(* Close[client] is what WLJS's default handlers call; like closing a socket that is already
   closed, it is quiet, and gives the connection. *)
WSJavaConnection /: Close[conn_WSJavaConnection] := (Quiet[WSJavaClose[conn]]; conn);

WSJavaConnection /: MakeBoxes[conn : WSJavaConnection[handle_Integer, id_Integer], form : (StandardForm | TraditionalForm)] :=
  BoxForm`ArrangeSummaryBox[WSJavaConnection, conn, None,
    {BoxForm`SummaryItem[{"ID: ", id}], BoxForm`SummaryItem[{"Path: ", conn["Path"]}]},
    {BoxForm`SummaryItem[{"Remote address: ", conn["RemoteAddress"]}], BoxForm`SummaryItem[{"Origin: ", conn["Origin"]}]},
    form];

End[];

EndPackage[];
