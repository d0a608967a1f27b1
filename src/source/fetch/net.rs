//! SSRF safety: which IP addresses the fetcher may connect to.
//!
//! By default only globally routable unicast addresses are allowed. The check runs on the
//! addresses a host name resolves to (inside the HTTP client's DNS resolver, so the
//! addresses checked are the addresses connected to: no rebinding window) and on IP
//! literals in URLs before any request; both happen for every redirect hop.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// Why an address is refused, or `None` when it is a public unicast address.
pub fn non_public_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4),
        IpAddr::V6(v6) => v6_reason(v6),
    }
}

fn v4_reason(ip: Ipv4Addr) -> Option<&'static str> {
    let o = ip.octets();
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_private() {
        Some("private")
    } else if ip.is_link_local() {
        Some("link-local")
    } else if ip.is_multicast() {
        Some("multicast")
    } else if o[0] == 0 {
        Some("unspecified")
    } else if ip.is_broadcast() || o[0] >= 240 {
        Some("reserved")
    } else if o[0] == 100 && (o[1] & 0xc0) == 64 {
        Some("shared address space (100.64.0.0/10)")
    } else if (o[0] == 192 && o[1] == 0 && o[2] == 0)
        || (o[0] == 192 && o[1] == 0 && o[2] == 2)
        || (o[0] == 198 && o[1] == 51 && o[2] == 100)
        || (o[0] == 203 && o[1] == 0 && o[2] == 113)
        || (o[0] == 198 && (o[1] & 0xfe) == 18)
    {
        Some("reserved")
    } else {
        None
    }
}

fn v6_reason(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return v4_reason(v4);
    }
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_unspecified() {
        Some("unspecified")
    } else if ip.is_multicast() {
        Some("multicast")
    } else if (s[0] & 0xfe00) == 0xfc00 {
        Some("private (unique local)")
    } else if (s[0] & 0xffc0) == 0xfe80 || (s[0] & 0xffc0) == 0xfec0 {
        Some("link-local")
    } else if s[0] == 0x0064 && s[1] == 0xff9b {
        // NAT64: the embedded IPv4 address is what is reached.
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        v4_reason(v4)
    } else if s[0] == 0x2002 {
        // 6to4: the embedded IPv4 address.
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        v4_reason(v4)
    } else if (s[0] == 0x2001 && s[1] == 0x0db8) || s[0..6].iter().all(|&x| x == 0) {
        // Documentation prefix; IPv4-compatible (deprecated) and other ::/96 forms.
        Some("reserved")
    } else {
        None
    }
}

/// An address range (`10.1.0.0/16`, `127.0.0.1`, `fd00::/8`) that `--allow-net` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for Cidr {
    type Err = String;
    fn from_str(s: &str) -> Result<Cidr, String> {
        let (a, p) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = a
            .trim_matches(['[', ']'])
            .parse()
            .map_err(|_| format!("not an IP address or CIDR range: {s}"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match p {
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|&p| p <= max)
                .ok_or_else(|| format!("bad prefix length in {s}"))?,
            None => max,
        };
        Ok(Cidr { addr, prefix })
    }
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - self.prefix as u32).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - self.prefix as u32).unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// Which addresses may be connected to.
#[derive(Debug, Clone, Default)]
pub struct AddrPolicy {
    /// Allow every address (`--allow-private`).
    pub allow_private: bool,
    /// Non-public ranges allowed all the same (`--allow-net`).
    pub allow_nets: Vec<Cidr>,
}

impl AddrPolicy {
    /// `Err(reason)` when the address may not be connected to.
    pub fn check(&self, ip: IpAddr) -> Result<(), String> {
        if self.allow_private || self.allow_nets.iter().any(|n| n.contains(ip)) {
            return Ok(());
        }
        match non_public_reason(ip) {
            None => Ok(()),
            Some(reason) => Err(format!(
                "{ip} is a {reason} address (use --allow-private or --allow-net to fetch from it)"
            )),
        }
    }
}

/// The error the resolver returns when every address of a name is refused; found again
/// in the HTTP client's error chain to classify the failure as `blocked_address`.
#[derive(Debug)]
pub struct BlockedAddress(pub String);

impl std::fmt::Display for BlockedAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BlockedAddress {}

/// DNS resolution through the system resolver, keeping only the addresses the policy allows.
pub struct GuardedResolver {
    pub policy: Arc<AddrPolicy>,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut refused = None;
            let allowed: Vec<SocketAddr> = addrs
                .into_iter()
                .filter(|a| match policy.check(a.ip()) {
                    Ok(()) => true,
                    Err(e) => {
                        refused.get_or_insert(e);
                        false
                    }
                })
                .collect();
            if allowed.is_empty() {
                let why = refused.unwrap_or_else(|| "no address".into());
                return Err(
                    Box::new(BlockedAddress(format!("{host} resolves to {why}")))
                        as Box<dyn std::error::Error + Send + Sync>,
                );
            }
            Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// Whether an error chain holds a [`BlockedAddress`].
pub fn blocked_in_chain(err: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cur {
        if let Some(b) = e.downcast_ref::<BlockedAddress>() {
            return Some(b.0.clone());
        }
        cur = e.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(s: &str) -> Option<&'static str> {
        non_public_reason(s.parse().unwrap())
    }

    #[test]
    fn non_public_addresses_are_recognised() {
        for a in [
            "127.0.0.1",
            "127.4.5.6",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "224.0.0.1",
            "239.255.255.250",
            "0.0.0.0",
            "255.255.255.255",
            "100.64.0.1",
            "::1",
            "::",
            "fe80::1",
            "fc00::1",
            "fd12:3456::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2002:a00:1::1",
        ] {
            assert!(reason(a).is_some(), "{a} should be refused");
        }
        for a in [
            "93.184.216.34",
            "8.8.8.8",
            "172.32.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert_eq!(reason(a), None, "{a} should be allowed");
        }
    }

    #[test]
    fn allow_nets_open_only_their_range() {
        let policy = AddrPolicy {
            allow_private: false,
            allow_nets: vec!["127.0.0.1".parse().unwrap(), "10.1.0.0/16".parse().unwrap()],
        };
        assert!(policy.check("127.0.0.1".parse().unwrap()).is_ok());
        assert!(policy.check("127.0.0.2".parse().unwrap()).is_err());
        assert!(policy.check("10.1.200.3".parse().unwrap()).is_ok());
        assert!(policy.check("10.2.0.1".parse().unwrap()).is_err());
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("::1/128"
            .parse::<Cidr>()
            .unwrap()
            .contains("::1".parse().unwrap()));
    }
}
