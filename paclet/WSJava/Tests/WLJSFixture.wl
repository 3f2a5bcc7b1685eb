(* ::Package:: *)

(* WLJS-shaped stand-ins for the WLJS bridge tests, written from the structure of WLJS 3.x (its
   code is not copied): a CoffeeLiqueur`WebSocketHandler`WebSocketUHandler object whose fields
   live in a symbol, and a small CoffeeLiqueur`Misc`Events` (handlers by id, "Closed" fired with
   EventFire). When WSJAVA_WLJS_DIR names a WLJS checkout, its real packages are loaded instead. *)

With[{wljs = Environment["WSJAVA_WLJS_DIR"]},
  If[StringQ[wljs] && DirectoryQ[wljs],
    PacletDirectoryLoad[FileNameJoin[{wljs, "Packages"}]];
    Needs["CoffeeLiqueur`Objects`"]; Needs["CoffeeLiqueur`Internal`"];
    Needs["CoffeeLiqueur`Misc`Events`"]; Needs["CoffeeLiqueur`WebSocketHandler`"],

    BeginPackage["CoffeeLiqueur`Misc`Events`"];
    EventFire::usage = "fixture"; EventClone::usage = "fixture"; EventRemove::usage = "fixture"; EventHandlers::usage = "fixture";
    Begin["`Private`"];
    Unprotect[EventHandler];
    EventHandler[id_String, rules_List] := (EventHandlers[id] = Join[Replace[EventHandlers[id], Except[_Association] -> <||>], Association[rules]]; id);
    EventFire[id_String, part_, data_] := With[{h = EventHandlers[id]}, If[AssociationQ[h], (part /. Normal[h])[data]]];
    EventRemove[id_String] := (EventHandlers[id] =.);
    EventClone[id_String] := id;
    End[];
    EndPackage[];

    BeginPackage["CoffeeLiqueur`WebSocketHandler`"];
    WebSocketUHandler::usage = "fixture"; WebSocketUSend::usage = "fixture"; $CurrenctUClient::usage = "fixture";
    Begin["`Private`"];
    SetAttributes[WebSocketUHandler, HoldFirst];
    WebSocketUHandler[] := Module[{fields = <|"MessageHandler" -> <||>, "DefaultMessageHandler" -> (Close[#] &),
        "Deserializer" -> (# &), "Serializer" -> (ExportByteArray[#, "Text"] &), "Connections" -> CreateDataStructure["HashSet"]|>},
      WebSocketUHandler[fields]];
    WebSocketUHandler[fields_Symbol][key_String] := fields[key];
    WebSocketUHandler /: Set[WebSocketUHandler[fields_Symbol][key_String, name_String], value_] :=
      (fields[key] = Append[fields[key], name -> value]; value);
    (* As WLJS's does: an unmasked text frame, written with BinaryWrite. *)
    WebSocketUSend[client_, message : (_String | _ByteArray)] := BinaryWrite[client, WSJava`WSJavaEncodeFrame[message, "Opcode" -> "Text"]];
    End[];
    EndPackage[]
  ]
];
