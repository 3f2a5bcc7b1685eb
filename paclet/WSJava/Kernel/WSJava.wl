(* ::Package:: *)

(* WSJava: the entry point. Declares every public symbol with its usage, then loads one file per
   feature: Java.wl (the JVM, byte transfer, option checks), Protocol.wl (masking, handshake,
   frames), Server.wl (WSJavaListen and the server object), Events.wl (draining Java's events into
   the handlers), Connection.wl (one connection: properties, send, close), Topics.wl (subscribe and publish),
   Client.wl (WSJavaConnect) and WLJSBridge.wl (WLJS's own
   functions on our connections). WLJS.wl is the drop-in handler for code written for WLJS but run
   without it, loaded only by Needs["WSJava`WLJS`"]. *)

BeginPackage["WSJava`"];

(* Public.wl protects the public symbols once they are defined; reading the paclet again defines them again. *)
Unprotect["WSJava`*"];

(* Usage in the built-ins' style: one line per form. Options are in Options[f] and in
   docs/wl-reference.md, which is generated from these files. *)

WSJava::usage = "WSJava is the symbol that WSJava's messages belong to.";

WSJavaInfo::usage = "WSJavaInfo[] gives an association with the WSJava version, the Java version and the masking kernel in use, starting Java if needed.";

WSJavaMask::usage = "WSJavaMask[key, payload] masks or unmasks the ByteArray payload with key, a 4-byte ByteArray or an integer from 0 to 2^32-1, as RFC 6455 defines.";
WSJavaAcceptKey::usage = "WSJavaAcceptKey[key] gives the Sec-WebSocket-Accept value for the Sec-WebSocket-Key string key.";
WSJavaHandshake::usage = "WSJavaHandshake[request] checks the HTTP upgrade request (a String or ByteArray) and gives an association with its \"Status\", \"Response\", \"Path\", \"Query\", \"Headers\", \"Subprotocol\", \"Reason\" and \"Rest\".\nWSJavaHandshake[request, {protocol1, ...}] also chooses a subprotocol.";
WSJavaEncodeFrame::usage = "WSJavaEncodeFrame[payload] gives the bytes of one frame: a text frame for a String, a binary frame for a ByteArray.";
WSJavaDecodeFrames::usage = "WSJavaDecodeFrames[bytes] gives <|\"Frames\" -> {frame1, ...}, \"Rest\" -> rest|> for the whole frames in the ByteArray bytes, or a Failure for a protocol violation.";

WSJavaListen::usage = "WSJavaListen[port] starts a WebSocket server on port of 127.0.0.1 and gives a WSJavaServer.\nWSJavaListen[{host, port}] starts it on host.\nWSJavaListen[address, f] applies f to an association for each message received.\nWSJavaListen[address, handler] serves the WLJS WebSocketUHandler handler.";
WSJavaServer::usage = "WSJavaServer[...] represents a running WSJava server.\nserver[\"prop\"] gives the property prop; server[\"Properties\"] lists them.";
WSJavaConnection::usage = "WSJavaConnection[handle, id] represents one client connection of a server.\nconn[\"prop\"] gives the property prop; conn[\"Properties\"] lists them.";
WSJavaSend::usage = "WSJavaSend[conn, msg] sends msg on the connection or WSJavaClient conn: a String as text, a ByteArray as binary.";
WSJavaBroadcast::usage = "WSJavaBroadcast[server, msg] sends msg to every open connection of server and gives how many took it.";
WSJavaSubscribe::usage = "WSJavaSubscribe[conn, topic] subscribes the server connection conn to the String topic.";
WSJavaUnsubscribe::usage = "WSJavaUnsubscribe[conn, topic] ends the subscription of conn to topic.";
WSJavaPublish::usage = "WSJavaPublish[server, topic, msg] sends msg to every connection of server subscribed to topic and gives how many took it.";
WSJavaClose::usage = "WSJavaClose[conn] starts the close handshake with code 1000.\nWSJavaClose[conn, code] uses the close code code.\nWSJavaClose[conn, code, reason] also sends the String reason.";
WSJavaConnect::usage = "WSJavaConnect[url] opens a WebSocket connection to the ws:// or wss:// URL url and gives a WSJavaClient.\nWSJavaConnect[url, f] applies f to an association for each message received.";
WSJavaClient::usage = "WSJavaClient[...] represents a client connection made by WSJavaConnect.\nclient[\"prop\"] gives the property prop; client[\"Properties\"] lists them.";
WSJavaWait::usage = "WSJavaWait[server] handles the events of a WSJavaServer or WSJavaClient until it stops, and gives how many it handled.\nWSJavaWait[server, t] returns after t seconds.";

EndPackage[];

(* Each feature file re-enters the WSJava` context. $InputFileName is this file again after each
   Get returns, and a pure function names no symbol, so loading creates none in the user's context.
   WLJS.wl is not loaded here: inside WLJS its names would shadow WLJS's own (General::shdw), so
   it loads only on Needs["WSJava`WLJS`"] (PacletInfo maps that context to it). *)
Get[FileNameJoin[{DirectoryName[$InputFileName], #}]] & /@
  {"Java.wl", "Protocol.wl", "Server.wl", "Events.wl", "Connection.wl", "Topics.wl", "Client.wl", "WLJSBridge.wl", "Public.wl"};
