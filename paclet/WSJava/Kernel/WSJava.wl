(* ::Package:: *)

(* WSJava: the entry point. Declares every public symbol with its usage, then loads one file per
   feature: Java.wl (the JVM and byte transfer), Protocol.wl (masking, handshake, frames) and
   Server.wl (the server and its handlers). The WLJS drop-in is a context of its own:
   Needs["WSJava`WLJS`"]. *)

BeginPackage["WSJava`"];

WSJava::usage = "WSJava is the symbol WSJava's messages hang on. See WSJavaServerStart, WSJavaMask and WSJavaInfo.";

WSJavaInfo::usage = "WSJavaInfo[] starts Java if needed and returns an association with the WSJava version, the Java version and the active masking kernel (\"scalar\" or \"simd-N\").";

WSJavaMask::usage = "WSJavaMask[key, payload] masks (or unmasks) the ByteArray payload with key, a 4-byte ByteArray or an integer 0 to 2^32-1, as RFC 6455 section 5.3 defines. Applying it twice gives payload back.";
WSJavaAcceptKey::usage = "WSJavaAcceptKey[key] gives the Sec-WebSocket-Accept value for the client's Sec-WebSocket-Key string.";
WSJavaHandshake::usage = "WSJavaHandshake[request] checks an HTTP upgrade request (a String or ByteArray) and returns an association with \"Status\" (101, or 400, 426, 431), \"Response\" (the bytes to send back), \"Path\", \"Query\", \"Headers\", \"Subprotocol\", \"Reason\" and \"Rest\" (bytes after the request head). WSJavaHandshake[request, {protocols}] also chooses a subprotocol.";
WSJavaEncodeFrame::usage = "WSJavaEncodeFrame[payload] gives the bytes of one frame: a text frame for a String, a binary frame for a ByteArray. Options \"Opcode\", \"Fin\" and \"Mask\" (True for the client role) change that.";
WSJavaDecodeFrames::usage = "WSJavaDecodeFrames[bytes] gives <|\"Frames\" -> {...}, \"Rest\" -> rest|>: every whole frame in the ByteArray bytes, as associations with \"Opcode\", \"Fin\" and \"Payload\", and the bytes of any incomplete frame. A protocol violation gives a Failure carrying the close code. Option \"Role\" -> \"Server\" (frames must be masked) or \"Client\".";

WSJavaServerStart::usage = "WSJavaServerStart[handlers] starts a WebSocket server on 127.0.0.1:20580 and returns a WSJavaServerObject. handlers is an association of optional functions: \"Open\" -> f[conn], \"Message\" -> f[conn, msg] (msg is a String for text, a ByteArray for binary), \"Close\" -> f[conn, code, reason], \"Error\" -> f[conn, text]. Options: \"Host\", \"Port\", \"AllowedOrigins\", \"AllowAnyOrigin\", \"Token\", \"MaxMessageSize\", \"Subprotocols\", \"AutoDrain\", \"DrainInterval\", \"ServerOptions\".";
WSJavaServerObject::usage = "WSJavaServerObject[<|...|>] is a running WSJava server. server[\"Port\"], server[\"URL\"], server[\"Stats\"] and server[\"Connections\"] query it.";
WSJavaConnection::usage = "WSJavaConnection[server, id] is one client connection. conn[\"Path\"], conn[\"Query\"], conn[\"Origin\"], conn[\"RemoteAddress\"] and conn[\"Subprotocol\"] describe it.";
WSJavaSend::usage = "WSJavaSend[conn, msg] sends msg to the connection: a String as a text message, a ByteArray as a binary message. Gives True, or a Failure when the connection is not open.";
WSJavaBroadcast::usage = "WSJavaBroadcast[server, msg] sends msg (String or ByteArray) to every open connection of server and gives how many took it.";
WSJavaClose::usage = "WSJavaClose[conn] closes the connection with code 1000. WSJavaClose[conn, code, reason] uses that close code and reason.";
WSJavaConnections::usage = "WSJavaConnections[server] gives the list of open WSJavaConnection objects.";
WSJavaServerStop::usage = "WSJavaServerStop[server] stops the server: every client gets close code 1001, then the port is released.";
WSJavaServerRun::usage = "WSJavaServerRun[server] handles events in a blocking loop until the server stops; for wolframscript scripts. WSJavaServerRun[server, t] returns after t seconds. Gives the number of events handled.";
WSJavaDrain::usage = "WSJavaDrain[server] runs the handlers for every event waiting now and gives how many there were. WSJavaDrain[server, t] first waits up to t seconds for one.";

EndPackage[];

(* Each feature file re-enters the WSJava` context; $InputFileName is this file while it loads. *)
With[{dir = DirectoryName[$InputFileName]},
  Get[FileNameJoin[{dir, "Java.wl"}]];
  Get[FileNameJoin[{dir, "Protocol.wl"}]];
  Get[FileNameJoin[{dir, "Server.wl"}]]
];
