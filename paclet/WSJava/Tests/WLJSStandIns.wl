(* ::Package:: *)

(* WLJS-shaped stand-ins for the WLJS bridge tests, written from the structure of WLJS 3.x (its
   code is not copied): a small CoffeeLiqueur`Misc`Events` (handlers by id, "Closed" fired with
   EventFire) and a CoffeeLiqueur`WebSocketHandler`WebSocketUHandler object whose fields live in a
   symbol. WLJSFixture.wl reads this file when no WLJS checkout is given.

   Every BeginPackage and Begin here is a top-level expression of its own. Get parses a whole
   top-level expression before it evaluates any of it, and a symbol is created when it is parsed,
   in the $Context and $ContextPath of that moment: a BeginPackage inside a larger expression
   would put every name below it in the reader's context (Global`). *)

BeginPackage["CoffeeLiqueur`Misc`Events`"];

EventFire::usage = "fixture: EventFire[id, part, data] calls the handler of part registered for id.";
EventClone::usage = "fixture: EventClone[id] gives id.";
EventRemove::usage = "fixture: EventRemove[id] forgets the handlers of id.";
EventHandlers::usage = "fixture: EventHandlers[id] is the association of handlers registered for id.";

Begin["`Private`"];

(* EventHandler is System`EventHandler, as in WLJS; a String id is WLJS's own use of it. *)
Unprotect[EventHandler];
EventHandler[id_String, rules_List] := (EventHandlers[id] = Join[Replace[EventHandlers[id], Except[_Association] -> <||>], Association[rules]]; id);
Protect[EventHandler];

EventFire[id_String, part_, data_] := With[{h = EventHandlers[id]}, If[AssociationQ[h] && KeyExistsQ[h, part], h[part][data]]];
EventRemove[id_String] := Quiet[EventHandlers[id] =.];
EventClone[id_String] := id;

End[];

EndPackage[];

BeginPackage["CoffeeLiqueur`WebSocketHandler`"];

WebSocketUHandler::usage = "fixture: WebSocketUHandler[] creates a handler object whose fields live in a symbol.";
WebSocketUSend::usage = "fixture: WebSocketUSend[client, msg] writes one unmasked text frame with BinaryWrite.";
$CurrenctUClient::usage = "fixture: $CurrenctUClient is the client whose message is being handled (WLJS's spelling).";

Begin["`Private`"];

SetAttributes[WebSocketUHandler, HoldFirst];
WebSocketUHandler[] := Module[{fields = <|"MessageHandler" -> <||>, "DefaultMessageHandler" -> (Close[#] &),
    "Deserializer" -> (# &), "Serializer" -> (ExportByteArray[#, "Text"] &), "Connections" -> CreateDataStructure["HashSet"]|>},
  WebSocketUHandler[fields]];
WebSocketUHandler[fields_Symbol][key_String] := fields[key];
WebSocketUHandler /: Set[WebSocketUHandler[fields_Symbol][key_String, name_String], value_] :=
  (fields[key] = Append[fields[key], name -> value]; value);
WebSocketUHandler /: Set[WebSocketUHandler[fields_Symbol][key_String], value_] := (fields[key] = value);

(* As WLJS's does: an unmasked text frame, written with BinaryWrite. *)
WebSocketUSend[client_, message : (_String | _ByteArray)] := BinaryWrite[client, WSJava`WSJavaEncodeFrame[message, "Opcode" -> "Text"]];

End[];

EndPackage[];
