(* ::Package:: *)

(* Shared by the .wlt files: a raw TCP WebSocket client written with the built-in sockets and
   WSJava's own frame functions, and a wait that handles events until a condition holds. Every
   read is bounded: SocketReadMessage blocks with no timeout, so it is only called once
   SocketReadyQ[socket, t] has said that bytes are there. *)

BeginPackage["WSJavaTests`", {"WSJava`"}];

testOrigin::usage = "testOrigin[server] is the Origin a browser on the server's own demo page sends: http://127.0.0.1:port.";
testConnect::usage = "testConnect[server, headers] opens a TCP socket to server and upgrades it; gives {socket, status line} (\"\" when no answer came within 10 s). Bytes after the response head are kept for testRead.";
testStatus::usage = "testStatus[port, path] sends an upgrade request for path to 127.0.0.1:port and gives the response's status code, or $Failed.";
testExtensions::usage = "testExtensions[port, offer] sends an upgrade request offering Sec-WebSocket-Extensions: offer and gives the extensions the 101 response agreed to, or None.";
testGet::usage = "testGet[port, path] sends a plain GET for path to 127.0.0.1:port (no proxy) and gives the response body, or $Failed.";
testSend::usage = "testSend[socket, payload] sends one masked frame (text for a String, binary for a ByteArray).";
testRead::usage = "testRead[socket, t] gives the frames of the first whole message (and any control frames before it) that arrive within t seconds.";
waitUntil::usage = "waitUntil[server, test, t] handles server's events until test[] gives True or t seconds pass; gives test[].";

Begin["`Private`"];

(* socket -> bytes read past what the last reader needed *)
$leftover = <||>;

request[path_String, headers_String] := "GET " <> path <> " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" <>
  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" <> headers <> "\r\n";

(* Reads until the response head is complete or t seconds pass; gives {head, rest} (head "" on time-out). *)
readHead[socket_, t_] := Module[{bytes = ByteArray[{}], deadline = AbsoluteTime[] + t, end = {}, data},
  While[end === {} && AbsoluteTime[] < deadline,
    If[SocketReadyQ[socket, 0.05],
      data = SocketReadMessage[socket];
      If[!ByteArrayQ[data], Break[]];
      bytes = Join[bytes, data];
      end = SequencePosition[Normal[bytes], {13, 10, 13, 10}, 1]]];
  If[end === {}, {"", ByteArray[{}]},
    {ByteArrayToString[bytes[[;; end[[1, 2]]]], "ISO8859-1"],
     If[end[[1, 2]] < Length[bytes], bytes[[end[[1, 2]] + 1 ;;]], ByteArray[{}]]}]
];

statusLine[head_String] := First[StringSplit[head, "\r\n"], ""];

testOrigin[server_] := "http://127.0.0.1:" <> ToString[server["Port"]];

testConnect[server_, headers_String : ""] := Module[{socket, head, rest},
  socket = SocketConnect[{"127.0.0.1", server["Port"]}, "TCP"];
  WriteString[socket, request["/chat?x=1", headers]];
  {head, rest} = readHead[socket, 10];
  $leftover[socket] = rest;
  {socket, statusLine[head]}
];

testStatus[port_Integer, path_String] := Module[{socket, head},
  socket = SocketConnect[{"127.0.0.1", port}, "TCP"];
  WriteString[socket, request[path, ""]];
  head = First[readHead[socket, 10]];
  Close[socket];
  Replace[StringCases[head, StartOfString ~~ "HTTP/1.1 " ~~ code : DigitCharacter .. :> ToExpression[code], 1], {{c_} :> c, _ -> $Failed}]
];

testExtensions[port_Integer, offer_String] := Module[{socket, head},
  socket = SocketConnect[{"127.0.0.1", port}, "TCP"];
  WriteString[socket, request["/", "Sec-WebSocket-Extensions: " <> offer <> "\r\n"]];
  head = First[readHead[socket, 10]];
  Close[socket];
  Replace[StringCases[head, "\r\nSec-WebSocket-Extensions: " ~~ value : Except["\r"] .. ~~ "\r\n" :> value, 1, IgnoreCase -> True],
    {{v_} :> v, _ -> None}]
];

testGet[port_Integer, path_String] := Module[{socket, bytes = ByteArray[{}], deadline = AbsoluteTime[] + 10, data, text},
  socket = SocketConnect[{"127.0.0.1", port}, "TCP"];
  WriteString[socket, "GET " <> path <> " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"];
  (* Until the server closes, or the body has its Content-Length, or 10 s. *)
  While[AbsoluteTime[] < deadline && !complete[bytes],
    If[SocketReadyQ[socket, 0.05],
      data = SocketReadMessage[socket];
      If[ByteArrayQ[data], bytes = Join[bytes, data], Break[]]]];
  Close[socket];
  text = ByteArrayToString[bytes, "UTF-8"];
  If[StringContainsQ[text, "\r\n\r\n"], Last[StringSplit[text, "\r\n\r\n", 2]], $Failed]
];

complete[bytes_ByteArray] := Module[{text = ByteArrayToString[bytes, "ISO8859-1"], head, length},
  If[!StringContainsQ[text, "\r\n\r\n"], Return[False]];
  head = First[StringSplit[text, "\r\n\r\n", 2]];
  length = StringCases[head, "Content-Length: " ~~ n : DigitCharacter .. :> FromDigits[n], 1, IgnoreCase -> True];
  length =!= {} && Length[bytes] >= StringLength[head] + 4 + First[length]
];

testSend[socket_, payload_] := BinaryWrite[socket, WSJavaEncodeFrame[payload, "Mask" -> True]];

(* Decoding is a J/Link call over the whole buffer, so it waits until a whole frame is there:
   one call per frame, not one per TCP chunk (a 17 MiB message arrives in hundreds). *)
testRead[socket_, t_ : 2] := Module[{bytes = Lookup[$leftover, socket, ByteArray[{}]], deadline = AbsoluteTime[] + t,
    frames = {}, decoded, data},
  While[True,
    If[Length[bytes] >= frameLength[bytes],
      decoded = WSJavaDecodeFrames[bytes, "Role" -> "Client"];
      If[!AssociationQ[decoded], Break[]];
      frames = Join[frames, decoded["Frames"]]; bytes = decoded["Rest"]];
    If[MemberQ[frames, KeyValuePattern["Fin" -> True]] || AbsoluteTime[] >= deadline, Break[]];
    If[SocketReadyQ[socket, 0.05],
      data = SocketReadMessage[socket];
      If[ByteArrayQ[data], bytes = Join[bytes, data], Break[]]]
  ];
  $leftover[socket] = bytes;
  frames
];

(* The size of the first frame in bytes, once its header is there (RFC 6455 section 5.2), else Infinity. *)
frameLength[b_ByteArray] := Module[{n = Length[b], mask, len},
  If[n < 2, Return[Infinity]];
  mask = If[BitAnd[b[[2]], 128] > 0, 4, 0];
  len = BitAnd[b[[2]], 127];
  Which[
    len < 126, 2 + mask + len,
    len == 126, If[n < 4, Infinity, 4 + mask + FromDigits[Normal[b[[3 ;; 4]]], 256]],
    True, If[n < 10, Infinity, 10 + mask + FromDigits[Normal[b[[3 ;; 10]]], 256]]]
];

waitUntil[server_, test_, t_ : 5] := Module[{deadline = AbsoluteTime[] + t},
  While[!TrueQ[test[]] && AbsoluteTime[] < deadline, WSJavaWait[server, 0.05]];
  TrueQ[test[]]
];

End[];

EndPackage[];
