(* ::Package:: *)

(* For code written against WLJS's WebSocket handler but run without WLJS: the same names and
   behaviour (CoffeeLiqueur`WebSocketHandler`, 3.x), served by WSJavaListen.
     Needs["WSJava`"]; Needs["WSJava`WLJS`"];
     ws = WebSocketUHandler[];
     ws["MessageHandler", "Evaluate"] = Function[True] -> handler;
     server = WSJavaListen[20559, ws];
   Inside WLJS, do not load this: pass WLJS's own handler to WSJavaListen (see the README).

   ws["MessageHandler", name] = rule must reach the handler's state. Set evaluates the head ws
   and stores a plain SubValue, never consulting an UpValue of the value (StackExchange 155480),
   so, as WLJS's Objects.wl does, assigning a handler to a variable (ws = WebSocketUHandler[])
   gives that variable its own Set, SetDelayed and Unset rules. Assignments through any other
   expression that evaluates to the handler (With[{h = ws}, h[...] = ...]) reach the handler's
   own UpValues. A handler that reached a variable some other way ({a, b} = {...}, possibly a
   Module initialisation) has no such rule; WebSocketUHandler is Protected, so an assignment
   through it fails loudly with Set::write instead of being lost without a word. *)

BeginPackage["WSJava`WLJS`", {"WSJava`"}];

WebSocketUHandler::usage = "WebSocketUHandler[] creates a WLJS-style handler object, to serve with WSJavaListen[port, handler].\nhandler[\"MessageHandler\", name] = condition -> function adds a message handler; =. removes it.\nhandler[\"field\"] gives a field: \"MessageHandler\", \"DefaultMessageHandler\", \"Deserializer\", \"Serializer\" or \"Connections\".";
WebSocketUSend::usage = "WebSocketUSend[client, msg] sends the String or ByteArray msg and gives the number of bytes sent, or $Failed.\nWebSocketUSend[handler, client, expr] sends expr with the serializer of handler.\nWebSocketUSend[channel, expr] sends expr to every client of channel.";
WebSocketUChannel::usage = "WebSocketUChannel[name, {client1, ...}] is a named group of clients to send to.";
$CurrenctUClient::usage = "$CurrenctUClient is the client whose message is being handled (spelled as WLJS spells it).";

Begin["`Private`"];

Unprotect[WebSocketUHandler, WebSocketUSend, WebSocketUChannel];   (* loading twice redefines them *)

$defaults = <|
  "MessageHandler" -> <||>,
  "DefaultMessageHandler" -> (Close[#1] &),
  "Deserializer" -> Identity,
  "Serializer" -> (ExportByteArray[#, "Text"] &)
|>;

(* A handler is WebSocketUHandler[state], state a symbol holding an association. *)
SetAttributes[WebSocketUHandler, HoldFirst];

WebSocketUHandler[] := Module[{state},
  state = Append[$defaults, "Connections" -> CreateDataStructure["HashSet"]];
  WebSocketUHandler[state]
];

WebSocketUHandler[state_Symbol][key_String] := Lookup[state, key, Missing["KeyAbsent", key]];
WebSocketUHandler[state_Symbol][key_String, name_String] := Lookup[Lookup[state, key, <||>], name, Missing["KeyAbsent", name]];

(* Applied to a client and the bytes of a message, as WLJS's handler can be. *)
WebSocketUHandler[state_Symbol][client_, message_ByteArray] := WSJava`Private`dispatchTo[WebSocketUHandler[state], client, message];

WebSocketUHandler /: Set[WebSocketUHandler[state_Symbol][key_String], value_] := (state[key] = value);
WebSocketUHandler /: Set[WebSocketUHandler[state_Symbol][key_String, name_String], value_] := (
  state[key] = Append[Lookup[state, key, <||>], name -> value];
  value
);
(* := keeps the rule unevaluated: it is evaluated each time the handlers are read. *)
WebSocketUHandler /: SetDelayed[WebSocketUHandler[state_Symbol][key_String, name_String], value_] := (
  state[key] = Append[Lookup[state, key, <||>], name :> value];
);
WebSocketUHandler /: Unset[WebSocketUHandler[state_Symbol][key_String]] := (
  state[key] = Lookup[$defaults, key, Missing["KeyAbsent", key]];
);
WebSocketUHandler /: Unset[WebSocketUHandler[state_Symbol][key_String, name_String]] := (
  state[key] = KeyDrop[Lookup[state, key, <||>], name];
);

(* name = WebSocketUHandler[...] gives name the rules, as Objects.wl does for WLJS's objects.
   OwnValues, not name = handler (which would come back here); no ClearAll, which would strip a
   Module variable's Temporary attribute (and so keep it forever) along with the user's own rules. *)
WebSocketUHandler /: Set[name_Symbol, handler : WebSocketUHandler[_Symbol]] := (
  OwnValues[name] = {HoldPattern[name] :> handler};
  name /: Set[name[keys__String], value_] := With[{h = handler}, h[keys] = value];
  name /: SetDelayed[name[keys__String], value_] := With[{h = handler}, h[keys] := value];
  name /: Unset[name[keys__String]] := With[{h = handler}, h[keys] =.];
  handler
);

(* ---- sending ---- *)

Options[WebSocketUSend] = {"Serializer" -> (ExportByteArray[#, "Text"] &) (* what turns expr into the bytes sent *)};

WebSocketUSend[client_WSJavaConnection, message : (_String | _ByteArray)] := WSJava`Private`wljsSend[client, message];
WebSocketUSend[client_WSJavaConnection, expr_, opts : OptionsPattern[]] :=
  If[FailureQ[WSJava`Private`unknownOptionFailure[WebSocketUSend, {opts}]], $Failed,
    WebSocketUSend[client, OptionValue[WebSocketUSend, {opts}, "Serializer"][expr]]];
WebSocketUSend[handler : WebSocketUHandler[_Symbol], client_WSJavaConnection, expr_] :=
  WebSocketUSend[client, handler["Serializer"][expr]];

(* ---- channels ---- *)

If[!AssociationQ[$channels], $channels = <||>];

(* A channel is WebSocketUChannel[<|"Name" -> name|>]; its clients live in $channels, in the
   order they joined. *)
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

(* Sends to every client of the channel and drops those whose send fails (keeping the others in
   their order); gives how many remain. *)
WebSocketUChannel /: WebSocketUSend[WebSocketUChannel[channel_Association], expr_, opts : OptionsPattern[WebSocketUSend]] :=
  Module[{name = channel["Name"], failed},
    failed = Select[Lookup[$channels, name, {}], WebSocketUSend[#, expr, opts] === $Failed &];
    $channels[name] = DeleteCases[Lookup[$channels, name, {}], Alternatives @@ failed];
    Length[$channels[name]]
  ];

SyntaxInformation[WebSocketUHandler] = {"ArgumentsPattern" -> {_.}};
SyntaxInformation[WebSocketUSend] = {"ArgumentsPattern" -> {_, _, _., OptionsPattern[]}, "OptionNames" -> {"Serializer"}};
SyntaxInformation[WebSocketUChannel] = {"ArgumentsPattern" -> {_, _.}};

(* $CurrenctUClient is not protected: it is set for each message. *)
Protect[WebSocketUHandler, WebSocketUSend, WebSocketUChannel];

End[];

EndPackage[];
