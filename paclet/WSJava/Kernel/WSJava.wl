(* ::Package:: *)

(* WSJava: the entry point. Declares every public symbol with its usage, then loads one file per
   feature: Java.wl (the JVM, byte transfer, option checks), Protocol.wl (masking, handshake,
   frames), Server.wl (WSJavaListen and the server object), Events.wl (draining Java's events into
   the handlers), Connection.wl (one connection: properties, send, close), Client.wl (WSJavaConnect) and WLJSBridge.wl (WLJS's own
   functions on our connections). WLJS.wl is the drop-in handler for code written for WLJS but run
   without it, loaded only by Needs["WSJava`WLJS`"]. *)

BeginPackage["WSJava`"];

WSJava::usage = "WSJava is the symbol WSJava's messages hang on. See WSJavaListen, WSJavaMask and WSJavaInfo.";

WSJavaInfo::usage = "WSJavaInfo[] starts Java if needed and gives an association with the WSJava version, the Java version and the active masking kernel (\"scalar\" or \"simd-N\").";

WSJavaMask::usage = "WSJavaMask[key, payload] masks (or unmasks) the ByteArray payload with key, a 4-byte ByteArray or an integer 0 to 2^32-1, as RFC 6455 section 5.3 defines. Applying it twice gives payload back.";
WSJavaAcceptKey::usage = "WSJavaAcceptKey[key] gives the Sec-WebSocket-Accept value for the client's Sec-WebSocket-Key string.";
WSJavaHandshake::usage = "WSJavaHandshake[request] checks an HTTP upgrade request (a String or ByteArray) and gives an association with \"Status\" (101, or 400, 426, 431), \"Response\" (the bytes to send back), \"Path\", \"Query\", \"Headers\", \"Subprotocol\", \"Reason\" and \"Rest\" (bytes after the request head). WSJavaHandshake[request, {protocols}] also chooses a subprotocol.";
WSJavaEncodeFrame::usage = "WSJavaEncodeFrame[payload] gives the bytes of one frame: a text frame for a String, a binary frame for a ByteArray. Options \"Opcode\", \"Fin\" and \"Mask\" (True for the client role) change that.";
WSJavaDecodeFrames::usage = "WSJavaDecodeFrames[bytes] gives <|\"Frames\" -> {...}, \"Rest\" -> rest|>: every whole frame in the ByteArray bytes, as associations with \"Opcode\", \"Fin\" and \"Payload\", and the bytes of any incomplete frame. A protocol violation gives a Failure carrying the close code. Options \"Role\" -> \"Server\" (frames must be masked) or \"Client\", and \"MaxFrameSize\".";

WSJavaListen::usage = "WSJavaListen[port] or WSJavaListen[{host, port}] starts a WebSocket server (host 127.0.0.1 by default; port 0 picks a free one) and gives a WSJavaServer. WSJavaListen[addr, f] applies f to an association for each message received. WSJavaListen[addr, h] serves a WLJS WebSocketUHandler h (WLJS's own, or WSJava`WLJS`'s). HandlerFunctions -> <|\"ConnectionOpened\" -> f, \"MessageReceived\" -> f, \"ConnectionClosed\" -> f, \"ErrorOccurred\" -> f|> gives each event's handler one association (keys \"Event\", \"Server\", \"Connection\", \"Timestamp\", and \"Data\", \"DataType\", \"CloseCode\", \"CloseReason\" or \"Message\"); HandlerFunctionsKeys chooses the keys, also among \"DataByteArray\", \"Path\", \"Query\", \"Origin\", \"RemoteAddress\", \"Subprotocol\". Other options: \"AllowedOrigins\" (Automatic, All or a list), \"Token\" (Automatic: none on loopback, a generated one beyond it, given by server[\"Token\"]; None; or a String clients pass as ?token=), \"MaxMessageSize\" (bytes), \"MaxConnections\", \"Subprotocols\", \"Compression\" (True: permessage-deflate with clients that offer it, as browsers do; False; or <|\"Level\" -> 0..9, \"Threshold\" -> bytes, \"ContextTakeover\" -> True or False|>), \"TLS\" (None; \"SelfSigned\"; <|\"Certificate\" -> file, \"Key\" -> file|> in PEM; <|\"KeyStore\" -> file, \"Password\" -> string|>: the server then serves wss:// and https://), \"PingInterval\" and \"IdleTimeout\" (seconds or None), \"DrainInterval\" (seconds).";
WSJavaServer::usage = "WSJavaServer[...] is a running WSJava server, as WSJavaListen gives it. server[\"Properties\"] lists what server[prop] gives: \"URL\", \"Host\", \"Port\", \"Token\" (the access token clients must send, or None), \"Running\", \"Connections\", \"Statistics\", \"HandlerFunctions\", \"HandlerFunctionsKeys\". DeleteObject[server] stops it: clients get close code 1001 and the close handlers run.";
WSJavaConnection::usage = "WSJavaConnection[handle, id] is one client of a server. conn[\"Properties\"] lists what conn[prop] gives: \"Server\", \"ID\", \"Open\", \"Path\", \"Query\", \"Origin\", \"RemoteAddress\", \"Subprotocol\" (kept from its opening until its close handler returns) and \"Headers\". Close[conn] closes it.";
WSJavaSend::usage = "WSJavaSend[conn, msg] sends msg to a connection: a String as a text message, a ByteArray as a binary message. Gives Success[\"WSJavaSent\", ...] with the \"ByteCount\", or a Failure when the connection is not open.";
WSJavaBroadcast::usage = "WSJavaBroadcast[server, msg] sends msg (a String as text, a ByteArray as binary) to every open connection of server, encoding it once, and gives how many connections took it.";
WSJavaClose::usage = "WSJavaClose[conn] starts the close handshake with code 1000. WSJavaClose[conn, code] and WSJavaClose[conn, code, reason] use that code and reason. Gives Success[\"WSJavaClosing\", ...] or a Failure when the connection is not open.";
WSJavaConnect::usage = "WSJavaConnect[url] opens a WebSocket connection to a ws:// or wss:// URL and gives a WSJavaClient; WSJavaConnect[url, f] applies f to an association for each message received. HandlerFunctions and HandlerFunctionsKeys work as for WSJavaListen (the \"Server\" key holds the WSJavaClient). Options: \"Subprotocols\" (offered, most preferred first), \"Headers\" (an association), \"Compression\" (True: offer permessage-deflate), \"TLS\" (Automatic: the system's trusted certificates; <|\"Certificate\" -> file|>: trust the certificates in a PEM file; <|\"Fingerprint\" -> hex|>: trust exactly the certificate with that SHA-256), \"ConnectTimeout\" (seconds), \"MaxMessageSize\" (bytes), \"DrainInterval\" (seconds).";
WSJavaClient::usage = "WSJavaClient[...] is a client connection, as WSJavaConnect gives it. client[\"Properties\"] lists what client[prop] gives: \"URL\", \"Connection\" (its WSJavaConnection), \"Open\", \"Subprotocol\", \"Extensions\", \"Headers\" (the server's response headers). WSJavaSend[client, msg] sends; Close[client] or WSJavaClose[client, code, reason] closes; WSJavaWait[client, t] handles its events; DeleteObject[client] closes it and forgets it.";
WSJavaWait::usage = "WSJavaWait[server] handles the server's (or a WSJavaClient's) events until it stops (a client: until it has closed and its close handler ran), for wolframscript scripts that have nothing else to do; WSJavaWait[server, t] returns after t seconds. Gives how many events it handled. Events are also handled by a scheduled task while the kernel evaluates anything else.";

EndPackage[];

(* Each feature file re-enters the WSJava` context. $InputFileName is this file again after each
   Get returns, and a pure function names no symbol, so loading creates none in the user's context.
   WLJS.wl is not loaded here: inside WLJS its names would shadow WLJS's own (General::shdw), so
   it loads only on Needs["WSJava`WLJS`"] (PacletInfo maps that context to it). *)
Get[FileNameJoin[{DirectoryName[$InputFileName], #}]] & /@
  {"Java.wl", "Protocol.wl", "Server.wl", "Events.wl", "Connection.wl", "Client.wl", "WLJSBridge.wl"};
