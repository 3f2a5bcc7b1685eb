(* ::Package:: *)

(* Shared by the .wlt files: a raw TCP WebSocket client written with the built-in sockets and
   WSJava's own frame functions, and a wait that handles events until a condition holds. *)

BeginPackage["WSJavaTests`", {"WSJava`"}];

testConnect::usage = "testConnect[server, headers] opens a TCP socket to server and upgrades it; gives {socket, status line}.";
testStatus::usage = "testStatus[port, path] sends an upgrade request for path to 127.0.0.1:port and gives the response's status code.";
testExtensions::usage = "testExtensions[port, offer] sends an upgrade request offering Sec-WebSocket-Extensions: offer and gives the extensions the 101 response agreed to, or None.";
testSend::usage = "testSend[socket, payload] sends one masked frame (text for a String, binary for a ByteArray).";
testRead::usage = "testRead[socket, t] gives the frames of the first whole message (and any control frames before it) that arrive within t seconds.";
waitUntil::usage = "waitUntil[server, test, t] handles server's events until test[] gives True or t seconds pass; gives test[].";

Begin["`Private`"];

testConnect[server_, headers_String : ""] := Module[{socket, reply},
  socket = SocketConnect[{"127.0.0.1", server["Port"]}, "TCP"];
  WriteString[socket, "GET /chat?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" <>
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" <> headers <> "\r\n"];
  reply = ByteArrayToString[SocketReadMessage[socket]];
  {socket, First[StringSplit[reply, "\r\n"], ""]}
];

testStatus[port_Integer, path_String] := Module[{socket, reply},
  socket = SocketConnect[{"127.0.0.1", port}, "TCP"];
  WriteString[socket, "GET " <> path <> " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" <>
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"];
  reply = ByteArrayToString[SocketReadMessage[socket], "ISO8859-1"];
  Close[socket];
  Replace[StringCases[reply, StartOfString ~~ "HTTP/1.1 " ~~ code : DigitCharacter .. :> ToExpression[code], 1], {{c_} :> c, _ -> $Failed}]
];

testExtensions[port_Integer, offer_String] := Module[{socket, reply},
  socket = SocketConnect[{"127.0.0.1", port}, "TCP"];
  WriteString[socket, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" <>
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: " <> offer <> "\r\n\r\n"];
  reply = ByteArrayToString[SocketReadMessage[socket], "ISO8859-1"];
  Close[socket];
  Replace[StringCases[reply, "\r\nSec-WebSocket-Extensions: " ~~ value : Except["\r"] .. ~~ "\r\n" :> value, 1, IgnoreCase -> True],
    {{v_} :> v, _ -> None}]
];

testSend[socket_, payload_] := BinaryWrite[socket, WSJavaEncodeFrame[payload, "Mask" -> True]];

testRead[socket_, t_ : 2] := Module[{bytes = ByteArray[{}], deadline = AbsoluteTime[] + t, frames = {}, decoded},
  While[AbsoluteTime[] < deadline && !MemberQ[frames, KeyValuePattern["Fin" -> True]],
    If[SocketReadyQ[socket, 0.05],
      bytes = Join[bytes, SocketReadMessage[socket]];
      decoded = WSJavaDecodeFrames[bytes, "Role" -> "Client"];
      If[AssociationQ[decoded], frames = Join[frames, decoded["Frames"]]; bytes = decoded["Rest"]]]
  ];
  frames
];

waitUntil[server_, test_, t_ : 5] := Module[{deadline = AbsoluteTime[] + t},
  While[!TrueQ[test[]] && AbsoluteTime[] < deadline, WSJavaWait[server, 0.05]];
  TrueQ[test[]]
];

End[];

EndPackage[];
