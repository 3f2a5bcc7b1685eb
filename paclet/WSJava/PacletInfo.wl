(* ::Package:: *)

PacletObject[<|
  "Name" -> "WSJava",
  "Version" -> "0.1.0",
  "WolframVersion" -> "13+",
  "Description" -> "A fast, strict RFC 6455 WebSocket server in Java, driven from the Wolfram Language through J/Link. Handlers stay in WL.",
  "Creator" -> "WSJava developers",
  "License" -> "Apache-2.0",
  (* The project's public address, on this one line: keep it equal to the POM's wsjava.home. *)
  "URL" -> "https://github.com/wsjava/wsjava", "SourceControlURL" -> "https://github.com/wsjava/wsjava",
  "Keywords" -> {"WebSocket", "RFC 6455", "server", "client", "J/Link", "WLJS", "real-time"},
  "Category" -> "External Interfaces & Connections",
  "Extensions" -> {
    {"Kernel",
      "Root" -> "Kernel",
      (* Needs["WSJava`WLJS`"] alone loads the drop-in handler, and Needs["WSJava`WLJSExtension`"]
         the WLJS extension's hooks; Needs["WSJava`"] loads neither. *)
      "Context" -> {{"WSJava`", "WSJava.wl"}, {"WSJava`WLJS`", "WLJS.wl"}, {"WSJava`WLJSExtension`", "WLJSExtension.wl"}},
      "Symbols" -> {
        "WSJava`WSJava", "WSJava`WSJavaInfo",
        "WSJava`WSJavaMask", "WSJava`WSJavaAcceptKey", "WSJava`WSJavaHandshake",
        "WSJava`WSJavaEncodeFrame", "WSJava`WSJavaDecodeFrames",
        "WSJava`WSJavaListen", "WSJava`WSJavaServer", "WSJava`WSJavaConnection",
        "WSJava`WSJavaSend", "WSJava`WSJavaBroadcast", "WSJava`WSJavaClose", "WSJava`WSJavaWait",
        "WSJava`WSJavaConnect", "WSJava`WSJavaClient",
        "WSJava`WSJavaSubscribe", "WSJava`WSJavaUnsubscribe", "WSJava`WSJavaPublish"
      }
    },
    {"JLink", "Root" -> "Java"}
  }
|>]
