(* ::Package:: *)

(* A drop-in for WLJS's WebSocket handler (CoffeeLiqueur`WebSocketHandler`, 3.x names), backed by
   a WSJava server. WLJS code that loads this context instead of its own handler keeps its
   handler semantics:
     ws = WebSocketUHandler[];
     ws["MessageHandler", "Evaluate"] = Function[True] -> WLJSTransportHandler;
     server = WSJavaWLJSListen["127.0.0.1", 20559, ws, "AllowedOrigins" -> {"http://127.0.0.1:20560"}];
   Handlers are stored as name -> (condition -> function); the first whose condition holds gets
   function[client, message], in the order they were set. Messages reach the deserializer as
   ByteArray (UTF-8 for text), as in WLJS. Clients are WSJavaConnection objects. *)

BeginPackage["WSJava`WLJS`", {"WSJava`"}];

WebSocketUHandler::usage = "WebSocketUHandler[] creates a WLJS-style handler: set h[\"MessageHandler\", name] = condition -> function, h[\"DefaultMessageHandler\"], h[\"Deserializer\"] (default Identity) and h[\"Serializer\"] (default ExportByteArray[#, \"Text\"]&). h[\"Connections\"] lists the open clients.";
WebSocketUSend::usage = "WebSocketUSend[client, msg] sends a String or ByteArray as a text frame and gives $Failed when that fails. WebSocketUSend[client, expr, \"Serializer\" -> f] sends f[expr]. WebSocketUSend[channel, expr] sends to every client of a channel.";
WebSocketUChannel::usage = "WebSocketUChannel[name, clients] is a named group of clients for broadcasts; Append and Delete add and remove clients.";
$CurrenctUClient::usage = "$CurrenctUClient is the client whose message is being handled (spelled as WLJS spells it).";
WSJavaWLJSListen::usage = "WSJavaWLJSListen[host, port, handler, opts] starts a WSJava server in place of WLJS's SocketListen/TCPServer wiring and feeds its messages to handler, a WebSocketUHandler[]. Options are those of WSJavaServerStart, plus \"OnClose\" -> f[client].";

Begin["`Private`"];

(* ---- handler objects: a fresh symbol each, whose settings live in $handlerState ---- *)

If[!AssociationQ[$handlerState], $handlerState = <||>];

$defaults = <|
  "MessageHandler" -> <||>,
  "DefaultMessageHandler" -> (WSJavaClose[#1] &),
  "Deserializer" -> Identity,
  "Serializer" -> (ExportByteArray[#, "Text"] &)
|>;

handlerQ[h_Symbol] := KeyExistsQ[$handlerState, h];
handlerQ[_] := False;

WebSocketUHandler[] := Module[{handler},
  $handlerState[handler] = Append[$defaults, "Connections" -> {}];
  (* ws["MessageHandler", name] = rule: Set evaluates ws to this symbol, and this UpValue keeps
     the rules in the order they were given. *)
  handler /: Set[handler[key_String, name_String], value_] := (
    $handlerState[[Key[handler], key]] = Append[$handlerState[handler][key], name -> value];
    value
  );
  handler /: Set[handler[key_String], value_] := ($handlerState[[Key[handler], key]] = value; value);
  handler[key_String] := $handlerState[handler][key];
  handler[key_String, name_String] := $handlerState[handler][key][name];
  (* Like WLJS's handler, it can be applied to a client and a message. *)
  handler[client_, message_ByteArray] := dispatch[handler, client, message];
  handler
];

dispatch[handler_, client_, data_ByteArray] := Module[{expr, match},
  $CurrenctUClient = client;
  expr = handler["Deserializer"][data];
  match = SelectFirst[Values[handler["MessageHandler"]], TrueQ[First[#][client, expr]] &, None];
  If[match === None, handler["DefaultMessageHandler"][client, expr], Last[match][client, expr]]
];

(* ---- the SocketListen replacement ---- *)

Options[WSJavaWLJSListen] = Join[Options[WSJavaServerStart], {"OnClose" -> None}];

WSJavaWLJSListen[host_String, port_Integer, handler_?handlerQ, opts : OptionsPattern[]] :=
  Module[{onClose = OptionValue["OnClose"]},
    WSJavaServerStart[<|
        "Open" -> Function[client, $handlerState[[Key[handler], "Connections"]] = Append[handler["Connections"], client]],
        "Message" -> Function[{client, message}, dispatch[handler, client, toBytes[message]]],
        "Close" -> Function[{client, code, reason},
          $handlerState[[Key[handler], "Connections"]] = DeleteCases[handler["Connections"], client];
          If[onClose =!= None, onClose[client]]]
      |>,
      "Host" -> host, "Port" -> port,
      Sequence @@ FilterRules[{opts}, Options[WSJavaServerStart]]
    ]
  ];
WSJavaWLJSListen[args___] := (
  Message[WSJava::args, WSJavaWLJSListen, Short[{args}], "a host, a port and a WebSocketUHandler[], then options"];
  Failure["WSJavaBadArguments", <|"MessageTemplate" :> WSJava::args,
    "MessageParameters" -> {WSJavaWLJSListen, Short[{args}], "a host, a port and a WebSocketUHandler[], then options"}|>]
);

toBytes[text_String] := StringToByteArray[text, "UTF-8"];
toBytes[bytes_ByteArray] := bytes;

(* ---- sending: $Failed on failure, as WLJS's liveness checks expect ---- *)

Options[WebSocketUSend] = {"Serializer" -> (ExportByteArray[#, "Text"] &)};

WebSocketUSend[client_WSJavaConnection, text_String] := Replace[Quiet[WSJavaSend[client, text]], Except[True] -> $Failed];
WebSocketUSend[client_WSJavaConnection, bytes_ByteArray] := Module[{text = Quiet[ByteArrayToString[bytes, "UTF-8"]]},
  (* WLJS sends byte arrays as text frames; bytes that are not UTF-8 go as binary instead. *)
  Replace[Quiet[WSJavaSend[client, If[StringQ[text], text, bytes]]], Except[True] -> $Failed]
];
WebSocketUSend[client_WSJavaConnection, expr_, OptionsPattern[]] := WebSocketUSend[client, OptionValue["Serializer"][expr]];
WebSocketUSend[handler_?handlerQ, client_WSJavaConnection, expr_] := WebSocketUSend[client, handler["Serializer"][expr]];

(* Raw frames some WLJS code writes itself: decode them and send their payloads as messages. *)
WSJavaConnection /: BinaryWrite[client_WSJavaConnection, frames_ByteArray] := Module[{decoded},
  decoded = WSJavaDecodeFrames[frames, "Role" -> "Client"];
  If[FailureQ[decoded], Return[$Failed]];
  Scan[
    Function[frame, Switch[frame["Opcode"],
      "Text", WebSocketUSend[client, frame["Payload"]],
      "Binary", WSJavaSend[client, frame["Payload"]],
      _, Null]],
    decoded["Frames"]
  ];
  client
];

(* ---- channels ---- *)

If[!AssociationQ[$channels], $channels = <||>];

(* A channel is WebSocketUChannel[<|"Name" -> name|>]; its clients live in $channels. *)
WebSocketUChannel[name_String, clients : {___WSJavaConnection} : {}] := (
  $channels[name] = DeleteDuplicates[Join[Lookup[$channels, name, {}], clients]];
  WebSocketUChannel[<|"Name" -> name|>]
);
WebSocketUChannel[channel_Association]["Connections"] := Lookup[$channels, channel["Name"], {}];
WebSocketUChannel[channel_Association]["Name"] := channel["Name"];

WebSocketUChannel /: Append[WebSocketUChannel[channel_Association], client_WSJavaConnection] :=
  WebSocketUChannel[channel["Name"], {client}];
WebSocketUChannel /: Delete[WebSocketUChannel[channel_Association], client_WSJavaConnection] := (
  $channels[channel["Name"]] = DeleteCases[Lookup[$channels, channel["Name"], {}], client];
  WebSocketUChannel[channel]
);

(* Sends to every client of the channel, drops those whose send fails, gives how many remain. *)
WebSocketUChannel /: WebSocketUSend[WebSocketUChannel[channel_Association], expr_, opts : OptionsPattern[WebSocketUSend]] :=
  Module[{name = channel["Name"], failed},
    failed = Select[Lookup[$channels, name, {}], WebSocketUSend[#, expr, opts] === $Failed &];
    $channels[name] = Complement[Lookup[$channels, name, {}], failed];
    Length[$channels[name]]
  ];

End[];

EndPackage[];
