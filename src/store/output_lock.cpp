#include "adaptsim/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/utc_timestamp.hpp"

namespace adaptsim {
namespace {

/// "host H, pid P, started T" from the lock file's JSON, or why it cannot be told.
std::string Holder(int fd) {
  std::string text(4096, '\0');
  ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  nlohmann::json holder = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!holder.is_object()) return "holder not recorded yet";
  auto field = [&](const char* key) {
    return holder.contains(key)
               ? (holder[key].is_string() ? holder[key].get<std::string>() : holder[key].dump())
               : std::string("?");
  };
  return "host " + field("host") + ", pid " + field("pid") + ", started " + field("started_utc");
}

/// The holder's record: host, pid, start time (UTC).
std::string HolderRecord() {
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) std::strcpy(host, "?");
  nlohmann::json record = {
      {"host", host}, {"pid", static_cast<long>(::getpid())}, {"started_utc", UtcTimestamp()}};
  return record.dump() + "\n";
}

}  // namespace

OutputLock::OutputLock(const OutputPaths& out) : path_(out.lock()) {
  const std::string& out_path = out.results();
  const std::string& folder_name = out.folder();
  // Open, lock, then check that the name still leads to the locked file: a holder that ends
  // deletes the file, and a lock taken on a deleted file would protect nothing.
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      throw InputError(out_path, 0, "--out",
                       "cannot write in folder '" + folder_name + "': " + std::strerror(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int error = errno;
      if (error == EWOULDBLOCK) {
        std::string holder = Holder(fd);
        ::close(fd);
        throw std::runtime_error("'" + out_path + "' is in use by another adaptsim sweep (" +
                                 holder + "; lock file '" + path_ +
                                 "'): wait for it to end, or stop it; a sweep that died has "
                                 "already released its lock");
      }
      if (error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS || error == EINVAL) {
        std::fprintf(stderr,
                     "adaptsim: warning: cannot lock '%s' (%s): this file system has no flock; "
                     "make sure no other sweep writes '%s'\n",
                     path_.c_str(), std::strerror(error), out_path.c_str());
        fd_ = fd;
        return;
      }
      ::close(fd);
      throw std::runtime_error("cannot lock '" + path_ + "': " + std::strerror(error));
    }
    struct stat opened {
    }, named{};
    if (::fstat(fd, &opened) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        opened.st_dev == named.st_dev && opened.st_ino == named.st_ino) {
      fd_ = fd;
      std::string record = HolderRecord();
      if (::ftruncate(fd_, 0) != 0 ||
          ::pwrite(fd_, record.data(), record.size(), 0) != static_cast<ssize_t>(record.size())) {
        std::string error = std::strerror(errno);
        ::unlink(path_.c_str());
        ::close(fd_);
        throw InputError(out_path, 0, "--out",
                         "cannot write in folder '" + folder_name + "': " + error);
      }
      return;
    }
    ::close(fd);  // the previous holder deleted the file meanwhile: try the new one
  }
  throw std::runtime_error("cannot lock '" + path_ + "': it keeps being replaced");
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still locked: a waiting process then retries (above)
  ::close(fd_);
}

}  // namespace adaptsim
