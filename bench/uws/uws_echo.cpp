// An echo server on uWebSockets, for ./wsjava bench echo when WSJAVA_UWS_DIR names a uWebSockets
// checkout with uSockets: built by scripts/build-uws-echo.sh with -O3, no TLS, no compression.
// Settings like WSJava's: 16 MiB messages, no idle timeout, automatic pings off, back-pressure
// high enough for one 16 MiB echo in flight.
//   uws_echo PORT    -> prints "listening on ws://127.0.0.1:PORT/" once it listens
#include "App.h"
#include <cstdio>
#include <cstdlib>

struct NoData {};

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: uws_echo PORT\n");
        return 2;
    }
    int port = std::atoi(argv[1]);
    uWS::App::WebSocketBehavior<NoData> behavior;
    behavior.compression = uWS::DISABLED;
    behavior.maxPayloadLength = 16 * 1024 * 1024;
    behavior.idleTimeout = 0;
    behavior.maxBackpressure = 64 * 1024 * 1024;
    behavior.sendPingsAutomatically = false;
    behavior.message = [](auto *ws, std::string_view message, uWS::OpCode opCode) {
        ws->send(message, opCode);
    };
    uWS::App().ws<NoData>("/*", std::move(behavior)).listen("127.0.0.1", port, [port](auto *listening) {
        if (!listening) {
            std::fprintf(stderr, "uws_echo: cannot listen on port %d\n", port);
            std::exit(1);
        }
        std::printf("listening on ws://127.0.0.1:%d/\n", port);
        std::fflush(stdout);
    }).run();
    return 0;
}
