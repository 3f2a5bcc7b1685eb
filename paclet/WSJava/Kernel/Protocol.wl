(* ::Package:: *)

(* Protocol functions for WL code that owns its sockets (as WLJS does today): masking, the
   accept key, the handshake and frames. The work happens in Java; this file checks arguments
   and converts between WL values and the flat results the Java facade returns. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::frame = "Protocol violation (close code `1`): `2`";
WSJava::incomplete = "The request head is incomplete: more bytes are needed.";

$opcodes = <|"Continuation" -> 0, "Text" -> 1, "Binary" -> 2, "Close" -> 8, "Ping" -> 9, "Pong" -> 10|>;

opcodeNumber[name_String] := Lookup[$opcodes, name, $Failed];
opcodeNumber[n_Integer] /; 0 <= n <= 15 := n;
opcodeNumber[_] := $Failed;

opcodeName[n_Integer] := Replace[n, Append[Reverse /@ Normal[$opcodes], other_ :> other]];

(* ---- masking ---- *)

maskKeyQ[key_ByteArray] := Length[key] == 4;
maskKeyQ[key_Integer] := 0 <= key < 2^32;
maskKeyQ[_] := False;

maskKeyNumber[key_ByteArray] := FromDigits[Normal[key], 256];
maskKeyNumber[key_Integer] := key;

WSJavaMask[key_?maskKeyQ, payload_ByteArray] := Module[{masked},
  masked = javaCall[WSJavaLink`maskBase64[maskKeyNumber[key], toJava[payload]]];
  If[FailureQ[masked], masked, fromJava[masked]]
];
WSJavaMask[args___] := argumentFailure[WSJavaMask, {args},
  "a key (4-byte ByteArray or integer 0 to 2^32-1) and a ByteArray payload"];

(* ---- handshake ---- *)

WSJavaAcceptKey[key_String] := javaCall[WSJavaLink`acceptKey[key]];
WSJavaAcceptKey[args___] := argumentFailure[WSJavaAcceptKey, {args}, "the Sec-WebSocket-Key as a String"];

WSJavaHandshake[request_String, protocols : {___String} : {}] :=
  WSJavaHandshake[StringToByteArray[request, "ISOLatin1"], protocols];
WSJavaHandshake[request_ByteArray, protocols : {___String} : {}] := Module[{flat},
  flat = javaCall[WSJavaLink`handshake[toJava[request], protocols]];
  Which[
    FailureQ[flat], flat,
    First[flat] === "0", Failure["WSJavaIncompleteRequest", <|"MessageTemplate" :> WSJava::incomplete|>],
    True, <|
      "Status" -> FromDigits[flat[[1]]],
      "Response" -> fromJava[flat[[2]]],
      "Path" -> flat[[3]],
      "Query" -> flat[[4]],
      "Subprotocol" -> If[flat[[5]] === "", None, flat[[5]]],
      "Reason" -> flat[[6]],
      "Rest" -> fromJava[flat[[7]]],
      "Headers" -> Association[Rule @@@ Partition[Drop[flat, 7], 2]]
    |>
  ]
];
WSJavaHandshake[args___] := argumentFailure[WSJavaHandshake, {args},
  "a request (String or ByteArray) and optionally a list of subprotocol names"];

(* ---- frames ---- *)

Options[WSJavaEncodeFrame] = {
  "Opcode" -> Automatic (* Automatic ("Text" for a String, "Binary" for a ByteArray), a name such as "Ping", or 0 to 15 *),
  "Fin" -> True (* False for a frame that a continuation follows *),
  "Mask" -> False (* True for the client role: the payload is masked with a random key *)
};

WSJavaEncodeFrame[payload : (_String | _ByteArray), opts : OptionsPattern[]] := Module[{bytes, opcode, fin, mask, frame, unknown},
  unknown = unknownOptionFailure[WSJavaEncodeFrame, {opts}];
  If[FailureQ[unknown], Return[unknown]];
  bytes = If[StringQ[payload], StringToByteArray[payload, "UTF-8"], payload];
  opcode = opcodeNumber[Replace[OptionValue["Opcode"], Automatic :> If[StringQ[payload], "Text", "Binary"]]];
  fin = OptionValue["Fin"];
  mask = OptionValue["Mask"];
  If[!IntegerQ[opcode] || !BooleanQ[fin] || !BooleanQ[mask],
    Return[argumentFailure[WSJavaEncodeFrame, {payload, opts},
      "\"Opcode\" a name or 0-15, \"Fin\" and \"Mask\" True or False"]]
  ];
  frame = javaCall[WSJavaLink`encodeFrame[opcode, fin, toJava[bytes], mask]];
  If[FailureQ[frame], frame, fromJava[frame]]
];
WSJavaEncodeFrame[args___] := argumentFailure[WSJavaEncodeFrame, {args}, "a String or ByteArray payload, then options"];

Options[WSJavaDecodeFrames] = {
  "Role" -> "Server" (* "Server" (frames must be masked) or "Client" (they must not be) *),
  "MaxFrameSize" -> 16777216 (* bytes; a longer frame is a protocol violation *)
};

WSJavaDecodeFrames[bytes_ByteArray, opts : OptionsPattern[]] := Module[{role, limit, flat, code, unknown},
  unknown = unknownOptionFailure[WSJavaDecodeFrames, {opts}];
  If[FailureQ[unknown], Return[unknown]];
  role = OptionValue["Role"];
  limit = OptionValue["MaxFrameSize"];
  If[!MemberQ[{"Server", "Client"}, role] || !(IntegerQ[limit] && 125 <= limit < 2^31),
    Return[argumentFailure[WSJavaDecodeFrames, {bytes, opts},
      "\"Role\" -> \"Server\" or \"Client\", \"MaxFrameSize\" an integer of at least 125"]]
  ];
  flat = javaCall[WSJavaLink`decodeFrames[toJava[bytes], role === "Server", limit]];
  If[FailureQ[flat], Return[flat]];
  code = FromDigits[flat[[1]]];
  If[code != 0,
    Message[WSJava::frame, code, flat[[2]]];
    Return[Failure["WSJavaProtocolError", <|"MessageTemplate" :> WSJava::frame,
      "MessageParameters" -> {code, flat[[2]]}, "CloseCode" -> code, "Reason" -> flat[[2]]|>]]
  ];
  <|"Frames" -> (frameAssociation /@ Partition[Drop[flat, 3], 3]), "Rest" -> fromJava[flat[[3]]]|>
];
WSJavaDecodeFrames[args___] := argumentFailure[WSJavaDecodeFrames, {args}, "a ByteArray, then options"];

frameAssociation[{opcode_String, fin_String, payload_String}] :=
  <|"Opcode" -> opcodeName[FromDigits[opcode]], "Fin" -> fin === "1", "Payload" -> fromJava[payload]|>;

End[];

EndPackage[];
