(* ::Package:: *)

(* Topics: a connection subscribes to named topics, and publishing to a topic sends to exactly its
   subscribers, encoded once (Java keeps a topic -> subscribers index, so a publish costs in
   proportion to its subscribers, not to the server's connections). A connection leaves all its
   topics when it closes. conn["Topics"] (Connection.wl) lists a connection's topics. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::nosub = "`1` could not subscribe to \"`2`\": it is not open, it holds the server's limit of topics, or the server's topics hold their memory budget.";

(* 1 to 256 characters, as Java counts them: none beyond the BMP, which Java would count twice and
   which would cross J/Link as a surrogate pair. *)
topicQ[topic_String] := 1 <= StringLength[topic] <= 256 && !beyondBmpQ[topic];
topicQ[_] := False;

(* Topics belong to a server's connections; a client's one connection has none. *)
serverConnectionQ[conn : WSJavaConnection[handle_Integer, _Integer]] :=
  connectionServerKnownQ[conn] && MatchQ[$servers[handle]["Object"], _WSJavaServer];
serverConnectionQ[_] := False;

WSJavaSubscribe[conn : WSJavaConnection[handle_Integer, id_Integer], topic_?topicQ] /; serverConnectionQ[conn] :=
  With[{ok = (rearmDrainTask[handle]; serverCall[handle, WSJavaLink`subscribe[handle, id, topic]])},
    Which[
      FailureQ[ok], ok,
      TrueQ[ok], Success["WSJavaSubscribed", <|"MessageTemplate" -> "`Connection` is subscribed to \"`Topic`\".",
        "MessageParameters" -> <|"Connection" -> conn, "Topic" -> topic|>, "Connection" -> conn, "Topic" -> topic|>],
      True,
        Message[WSJava::nosub, conn, topic];
        Failure["WSJavaNotSubscribed", <|"MessageTemplate" :> WSJava::nosub, "MessageParameters" -> {conn, topic},
          "Connection" -> conn, "Topic" -> topic|>]]];
WSJavaSubscribe[conn_WSJavaConnection, _?topicQ] /; !connectionServerKnownQ[conn] := notOpenFailure[conn];
WSJavaSubscribe[args___] := argumentFailure[WSJavaSubscribe, {args}, $topicArguments];

$topicArguments = "a server's WSJavaConnection and a topic (a String of 1 to 256 characters, none beyond the BMP)";

(* A closed connection has left its topics already: that is a Success too ("WasSubscribed" -> False). *)
WSJavaUnsubscribe[conn : WSJavaConnection[handle_Integer, id_Integer], topic_?topicQ] /; serverConnectionQ[conn] :=
  With[{ok = (rearmDrainTask[handle]; serverCall[handle, WSJavaLink`unsubscribe[handle, id, topic]])},
    If[FailureQ[ok], ok,
      Success["WSJavaUnsubscribed", <|"MessageTemplate" -> "`Connection` is not subscribed to \"`Topic`\".",
        "MessageParameters" -> <|"Connection" -> conn, "Topic" -> topic|>, "Connection" -> conn, "Topic" -> topic,
        "WasSubscribed" -> TrueQ[ok]|>]]];
WSJavaUnsubscribe[conn_WSJavaConnection, _?topicQ] /; !connectionServerKnownQ[conn] := notOpenFailure[conn];
WSJavaUnsubscribe[args___] := argumentFailure[WSJavaUnsubscribe, {args}, $topicArguments];

(* How many subscribers took the message, as WSJavaBroadcast counts. Text beyond the BMP goes as
   its UTF-8 bytes (beyondBmpQ, Java.wl). *)
WSJavaPublish[server_?knownServerQ, topic_?topicQ, text_String] := With[{handle = server[[1, "Handle"]]},
  rearmDrainTask[handle];
  If[beyondBmpQ[text],
    serverCall[handle, WSJavaLink`publishUtf8Base64[handle, topic, toJava[StringToByteArray[text, "UTF-8"]]]],
    serverCall[handle, WSJavaLink`publishText[handle, topic, text]]]];
WSJavaPublish[server_?knownServerQ, topic_?topicQ, bytes_ByteArray] := With[{handle = server[[1, "Handle"]]},
  rearmDrainTask[handle];
  serverCall[handle, WSJavaLink`publishBinaryBase64[handle, topic, toJava[bytes]]]];
WSJavaPublish[server_WSJavaServer, _?topicQ, _String | _ByteArray] := goneFailure[server];
WSJavaPublish[args___] := argumentFailure[WSJavaPublish, {args},
  "a WSJavaServer, a topic (a String of 1 to 256 characters, none beyond the BMP) and a String or ByteArray"];

End[];

EndPackage[];
