/* Test aid: print what SimGrid made of a platform, for tests/sim/check_routes.py
 * to compare with what sim/platgen.py intends: first every link, one line
 * each, "link NAME BANDWIDTH POLICY" (a SPLITDUPLEX link shows as its two
 * halves NAME_UP and NAME_DOWN), then the route between every pair of hosts,
 * "SRC DST LINK...". */
#include <simgrid/s4u.hpp>
#include <cstdio>

static const char* policy_name(simgrid::s4u::Link::SharingPolicy p)
{
  using P = simgrid::s4u::Link::SharingPolicy;
  switch (p) {
    case P::FATPIPE:
      return "FATPIPE";
    case P::SHARED:
      return "SHARED";
    case P::SPLITDUPLEX:
      return "SPLITDUPLEX";
    default:
      return "OTHER";
  }
}

int main(int argc, char** argv)
{
  simgrid::s4u::Engine e(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PLATFORM.xml\n", argv[0]);
    return 2;
  }
  e.load_platform(argv[1]);
  e.seal_platform(); // Dijkstra numbers its graph when sealed
  for (auto const* l : e.get_all_links())
    std::printf("link %s %.17g %s\n", l->get_cname(), l->get_bandwidth(),
                policy_name(l->get_sharing_policy()));
  std::vector<simgrid::s4u::Host*> hosts = e.get_all_hosts();
  for (auto const* a : hosts)
    for (auto const* b : hosts) {
      if (a == b)
        continue;
      std::vector<simgrid::s4u::Link*> links;
      double lat = 0;
      a->route_to(b, links, &lat);
      std::printf("%s %s", a->get_cname(), b->get_cname());
      for (auto const* l : links)
        std::printf(" %s", l->get_cname());
      std::printf("\n");
    }
  return 0;
}
