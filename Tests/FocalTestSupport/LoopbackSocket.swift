import Foundation
import Glibc

/// Opening raw TCP connections to a server on 127.0.0.1, for tests that need what no HTTP
/// client does (half-sent requests, counting refusals).
public enum LoopbackSocket {
    /// A TCP socket connected to `port` on 127.0.0.1, or the `errno` of the failed attempt.
    /// With `readTimeout`, every read on it gives up after that many seconds (`SO_RCVTIMEO`),
    /// so a test expecting an answer fails instead of hanging. With `source`, another loopback
    /// address (`127.0.0.2`, …), the connection comes from it: a client at another address.
    public static func dial(port: Int, readTimeout: Int? = nil, from source: String? = nil) -> Result<Int32, POSIXError> {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                close(socket)
                return .failure(failure)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(socket)
            return .failure(failure)
        }
        if let readTimeout { setReadTimeout(of: socket, seconds: readTimeout) }
        return .success(socket)
    }

    /// Makes every read on `socket` give up after `seconds`.
    public static func setReadTimeout(of socket: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}
