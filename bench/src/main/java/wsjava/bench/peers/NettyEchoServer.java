package wsjava.bench.peers;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketServerCompressionHandler;

/**
 * Netty's WebSocket echo server, configured like WSJava's: 16 MiB messages, one I/O thread per
 * core. With {@code --deflate} it also agrees to permessage-deflate (Netty's compression handler);
 * with {@code --tls CERT.pem KEY.pem} it serves wss:// with the JDK's TLS (SslProvider.JDK); with
 * {@code --epoll} or {@code --io_uring} it runs on one of Netty's native transports instead of NIO,
 * as a Netty user who cares about speed does (Linux only; see {@link NettyTransport}).
 */
public final class NettyEchoServer {

    private NettyEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[args.length - 1]);
        java.util.List<String> options = java.util.Arrays.asList(args);
        boolean deflate = options.contains("--deflate");
        int tlsAt = options.indexOf("--tls");
        io.netty.handler.ssl.SslContext tls = tlsAt < 0 ? null
                : io.netty.handler.ssl.SslContextBuilder.forServer(new java.io.File(args[tlsAt + 1]), new java.io.File(args[tlsAt + 2]))
                        .sslProvider(io.netty.handler.ssl.SslProvider.JDK).protocols("TLSv1.3", "TLSv1.2").build();
        int max = 16 * 1024 * 1024;
        NettyTransport transport = NettyTransport.of(options);
        io.netty.channel.IoHandlerFactory handlers = transport.handlers();
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, handlers);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(), handlers);
        WebSocketServerProtocolConfig config = WebSocketServerProtocolConfig.newBuilder()
                .websocketPath("/")
                .checkStartsWith(true)
                .decoderConfig(WebSocketDecoderConfig.newBuilder().maxFramePayloadLength(max).allowExtensions(deflate).build())
                .build();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(transport.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536));
                        if (deflate) {
                            ch.pipeline().addLast(new WebSocketServerCompressionHandler(max));
                        }
                        ch.pipeline().addLast(new WebSocketServerProtocolHandler(config), new WebSocketFrameAggregator(max), new Echo());
                    }
                });
        Channel channel;
        try {
            channel = bootstrap.bind("127.0.0.1", port).sync().channel();
        } catch (Exception e) {     // the event loops' threads would keep this JVM alive, not ready and not gone
            System.err.println("cannot listen on port " + port + ": " + e);
            System.exit(1);
            return;
        }
        System.out.println("listening on " + (tls == null ? "ws" : "wss") + "://127.0.0.1:" + port + "/");
        channel.closeFuture().sync();
    }

    /** Text and binary frames go back as they came (the aggregator has joined fragments). */
    static final class Echo extends SimpleChannelInboundHandler<WebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            if (frame instanceof TextWebSocketFrame || frame instanceof BinaryWebSocketFrame) {
                ctx.writeAndFlush(frame.retain());
            }
        }
    }
}
